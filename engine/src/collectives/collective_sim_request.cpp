// The adapter of collective_sim.h: its request read from named values as the WASM API passes
// them, with the collective calculator's defaults.
#include <optional>
#include <string>
#include <utility>

#include "scalebook/collectives/collective_sim.h"
#include "scalebook/core/checks.h"
#include "scalebook/core/format.h"
#include "scalebook/core/registry.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/slice.h"

namespace scalebook {
namespace {

Error fail(ErrorCode code, const std::string& field, std::string message) {
  return Error{code, field, std::move(message)};
}

std::string describe(const Value& v) {
  return v.is_number() ? format_number(v.number) : "\"" + v.text + "\"";
}

constexpr const char* kFields[] = {"op",        "shape",   "bytes", "wraparound", "bidirectional",
                                   "bandwidth", "latency", "values"};

}  // namespace

Result<CollectiveSimRequest> collective_sim_request(const Inputs& fields,
                                                    std::vector<double> values) {
  for (const auto& [key, value] : fields) {
    bool known = false;
    std::string names;
    for (const char* f : kFields) {
      known = known || key == f;
      names += (names.empty() ? "" : ", ") + std::string(f);
    }
    if (!known) {
      return fail(ErrorCode::invalid_argument, key,
                  "simulateCollective has no field \"" + key + "\"; its fields are " + names);
    }
  }
  CollectiveSimRequest q;
  q.values = std::move(values);
  const Chip* link = find_chip(kDefaultChip);
  q.bandwidth = link ? link->ici_link_bandwidth : 0;
  q.latency = link ? link->ici_hop_latency : 0;
  Result<Schema> schema = schema_of("collective");
  for (const InputSpec& spec : schema.value().inputs)
    if (spec.name == "bytes") q.bytes = spec.default_value.number;
  q.shape = {8};
  auto given = [&](const char* name) -> const Value* {
    auto it = fields.find(name);
    return it == fields.end() || it->second.is_none() ? nullptr : &it->second;
  };
  if (const Value* v = given("op")) {
    auto op = v->is_text() ? parse_collective_op(v->text) : std::nullopt;
    if (!op) {
      std::string names;
      for (const std::string& n : collective_op_names()) names += (names.empty() ? "" : ", ") + n;
      return fail(ErrorCode::invalid_argument, "op",
                  "op must be one of " + names + ", got " + describe(*v));
    }
    q.op = *op;
  }
  if (const Value* v = given("shape")) {
    std::string text = v->is_number() ? format_number(v->number) : v->text;
    if (!parse_axis_sizes(text, q.shape)) {
      return fail(ErrorCode::invalid_argument, "shape",
                  "shape must be sizes joined by x, like 8 or 4x4, got \"" + text + "\"");
    }
  }
  for (const char* name : {"wraparound", "bidirectional"}) {
    const Value* v = given(name);
    if (!v) continue;
    if (!v->is_text() || (v->text != "yes" && v->text != "no")) {
      return fail(ErrorCode::invalid_argument, name,
                  std::string(name) + " must be one of yes, no, got " + describe(*v));
    }
    (std::string(name) == "wraparound" ? q.wraparound : q.bidirectional) = v->text == "yes";
  }
  for (auto [name, target] : {std::pair<const char*, double*>{"bytes", &q.bytes},
                              {"bandwidth", &q.bandwidth},
                              {"latency", &q.latency}}) {
    const Value* v = given(name);
    if (!v) continue;
    if (v->is_number()) {
      *target = v->number;
    } else if (!parse_decimal(v->text, *target)) {
      return fail(ErrorCode::invalid_argument, name,
                  std::string(name) + " must be a number, got " + describe(*v));
    }
  }
  return q;
}

}  // namespace scalebook
