#pragma once
// The simulation registry, beside the calculators' (registry.h). A simulation plays a
// calculation step by step for a page to draw (the systolic array, the collectives, a
// pipeline schedule); each domain registers its own with one static object in its folder:
//   const SimulationRegistration registered{systolic_simulation};
// and every face (the WASM API's simulate(name, request), the CLI's simulate command) reaches
// it by name through simulate() below. The registry knows no domain.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

namespace scalebook {

// A simulation's result: a tree of numbers, texts, flags, number arrays and byte arrays. The
// bindings convert it without knowing the simulation (WASM: number arrays become
// Float64Arrays, byte arrays Uint8Arrays; CLI: JSON), so a frame's many numbers cross as one
// array rather than an object each.
struct SimNode {
  enum class Kind { null, number, text, flag, numbers, bytes, list, object };
  Kind kind = Kind::null;
  double number = 0;
  bool flag = false;
  std::string text;
  std::vector<double> numbers;
  std::vector<std::uint8_t> bytes;
  std::vector<SimNode> items;                           // a list's
  std::vector<std::pair<std::string, SimNode>> fields;  // an object's, in order

  static SimNode of(double x);
  static SimNode of(std::string text);
  static SimNode of_flag(bool b);
  static SimNode of(std::vector<double> xs);
  static SimNode of(std::vector<std::uint8_t> bytes);
  static SimNode list();
  static SimNode object();
  // Appends to an object (returns it, for chaining) or to a list.
  SimNode& set(std::string key, SimNode value);
  void push(SimNode value);
  // An object's field, or null when there is none.
  const SimNode* find(std::string_view key) const;
};

// Where a request comes from: a page gets the simulation's page budget, the command line its
// whole one (a reader's tab must not wait minutes; a shell may).
enum class SimCaller { page, command_line };

struct SimulationRequest {
  Inputs fields;               // named numbers and texts; absent: the default
  std::vector<double> values;  // the simulation's list field, when it has one; empty: absent
  SimCaller caller = SimCaller::page;
};

struct Simulation {
  std::string name;  // "systolic", "collective", "pipeline"
  // How the unknown-field error names it and its fields, as pages and tests have always read
  // it: "simulateSystolic has no field ..." (the WASM API's function of old), "pipeline has no
  // input ..." (the calculator whose inputs it takes).
  std::string subject;
  std::string field_word = "field";
  // The request's fields in order, for the unknown-field error; computed on first use, as a
  // simulation may take a calculator's inputs.
  std::vector<std::string> fields;
  std::string list_field;  // the field that holds a list of numbers ("values"), or ""
  // The work budget: the field that sets it ("" when the simulation's cap is fixed) and the
  // most a page and the command line may ask for. run() refuses more, naming the field.
  std::string budget_field;
  double page_budget = 0;
  double budget = 0;
  Result<SimNode> (*run)(const SimulationRequest& request, double most_budget) = nullptr;
};

class SimulationRegistration {
 public:
  explicit SimulationRegistration(std::initializer_list<Simulation (*)()> makers);
};

// Names of every registered simulation, sorted.
std::vector<std::string> simulation_names();

// The simulation called `name`, or a not_found error (field "simulation") listing the names.
Result<const Simulation*> find_simulation(std::string_view name);

// Checks the request's field names (an unknown one is an invalid_argument naming it and
// listing the fields) and runs it under the caller's budget. Never throws; bad input is an
// Error naming its field.
Result<SimNode> simulate(std::string_view name, const SimulationRequest& request);

}  // namespace scalebook
