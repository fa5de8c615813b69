#pragma once
// The CLI's usage texts: the whole list, and each command's (or subcommand's) part of it, so
// `scalebook COMMAND --help` and `scalebook --help` cannot disagree.
#include <optional>
#include <string>
#include <vector>

namespace scalebook::cli {

// Every command with its usage lines: what `scalebook --help` prints.
std::string usage();

// The usage of words[0] (and words[1] when it names a subcommand), or nothing for an unknown
// command. A calculator named after calc, sweep or solve adds its schema.
std::optional<std::string> command_usage(const std::vector<std::string>& words);

// Whether the line asks for help: -h or --help anywhere after the command.
bool asks_for_help(const std::vector<std::string>& words);

}  // namespace scalebook::cli
