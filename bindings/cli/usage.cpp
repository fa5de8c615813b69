#include "usage.h"

#include "scalebook/core/registry.h"
#include "text_out.h"

namespace scalebook::cli {
namespace {

struct Usage {
  const char* command;
  const char* sub;  // the subcommand these lines document, or "" for the command as a whole
  const char* lines;
};

constexpr const char* kHeader = "usage: scalebook [--json|--text] [--explain] COMMAND\n";

// In the order `scalebook --help` lists them.
const Usage kUsages[] = {
    {"list", "", "  list                      the calculators\n"},
    {"schema", "", "  schema NAME               a calculator's inputs and outputs\n"},
    {"calc", "",
     "  calc NAME [name=value]... run a calculator (values in SI base units); with a model\n"
     "                            input, --model-config FILE gives it a config.json's model\n"
     "        [--top N]           how many configurations a search lists (training-search)\n"
     "        [--export jax]      print the best configuration as a JAX mesh to start from\n"},
    {"sweep", "",
     "  sweep NAME --over INPUT (--values 1,2,4 | --from A --to B [--points N] [--log])\n"
     "        [--outputs a,b] [name=value]...   outputs at each value of one input\n"},
    {"solve", "",
     "  solve NAME --over INPUT --output OUTPUT --target X --from A --to B [name=value]...\n"
     "                            the smallest INPUT in [A, B] at which OUTPUT reaches X\n"},
    {"simulate", "pipeline",
     "  simulate pipeline [name=value]...  a pipeline schedule played item by item (the\n"
     "                            pipeline calculator's inputs; text draws the Gantt grid)\n"},
    {"simulate", "serving",
     "  simulate serving [name=value]... [--seed N]  requests arriving at random, served by\n"
     "                            static, continuous or disaggregated batching; text shows\n"
     "                            TTFT, TPOT and latency percentiles, JSON adds the series\n"},
    {"chips", "", "  chips                     the hardware catalog\n"},
    {"chip", "", "  chip ID                   one chip with its source notes\n"},
    {"models", "", "  models                    the model catalog\n"},
    {"model", "",
     "  model ID                  one model's configuration with its source notes\n"
     "  model --from-config FILE  a model from a Hugging Face config.json: its fields, the key\n"
     "                            each came from, and the keys it could not map\n"},
    {"exercise", "list", "  exercise list [CHAPTER]   the exercises\n"},
    {"exercise", "show",
     "  exercise show ID [--seed N]           a variant's prompt (--explain adds the solution)\n"},
    {"exercise", "grade", "  exercise grade ID --answer A [--seed N] [--part P]\n"},
    {"exercise", "check",
     "  exercise check [PATH]     validate exercise files; exit 1 when a problem is found\n"},
};

// Said once after the exercise commands, whichever of them is shown.
constexpr const char* kExerciseFolder =
    "  (--exercises DIR or SCALEBOOK_EXERCISES picks the exercise folder)\n";

// The schema of calculator `name` after `text`, when there is one by that name.
std::string with_schema(std::string text, const std::string& name) {
  Result<Schema> schema = schema_of(name);
  if (schema.ok()) text += "\n" + to_text(schema.value());
  return text;
}

}  // namespace

std::string usage() {
  std::string text = kHeader;
  for (const Usage& u : kUsages) text += u.lines;
  return text + kExerciseFolder;
}

std::optional<std::string> command_usage(const std::vector<std::string>& words) {
  if (words.empty()) return usage();
  const std::string& command = words[0];
  const std::string second = words.size() > 1 ? words[1] : "";
  bool known = false, sub_known = false;
  for (const Usage& u : kUsages) {
    known |= command == u.command;
    sub_known |= command == u.command && second == u.sub && *u.sub;
  }
  if (!known) return std::nullopt;
  std::string text = kHeader;
  for (const Usage& u : kUsages) {
    if (command == u.command && (!sub_known || second == u.sub)) text += u.lines;
  }
  if (command == "exercise") text += kExerciseFolder;
  bool takes_calculator = command == "calc" || command == "sweep" || command == "solve";
  return takes_calculator && !second.empty() ? with_schema(text, second) : text;
}

bool asks_for_help(const std::vector<std::string>& words) {
  for (const std::string& w : words)
    if (w == "--help" || w == "-h") return true;
  return false;
}

}  // namespace scalebook::cli
