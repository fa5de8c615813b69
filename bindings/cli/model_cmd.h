#pragma once
// `scalebook model ID` and `scalebook model --from-config FILE`, and --model-config FILE,
// which gives any calculator with a model input the model a config.json describes.
#include <string>

#include "options.h"

namespace scalebook::cli {

int model_command(const Options& opt);

// `inputs` with the model of --model-config (when given) as model=custom and its fields;
// a field also given as name=value keeps that value. An error names the option or the key.
Result<Inputs> with_model_config(const Options& opt, const std::string& calculator, Inputs inputs);

}  // namespace scalebook::cli
