#include "scalebook/core/simulation.h"

#include <algorithm>
#include <string>
#include <utility>

#include "scalebook/core/checks.h"

namespace scalebook {

SimNode SimNode::of(double x) {
  SimNode n;
  n.kind = Kind::number, n.number = x;
  return n;
}

SimNode SimNode::of(std::string text) {
  SimNode n;
  n.kind = Kind::text, n.text = std::move(text);
  return n;
}

SimNode SimNode::of_flag(bool b) {
  SimNode n;
  n.kind = Kind::flag, n.flag = b;
  return n;
}

SimNode SimNode::of(std::vector<double> xs) {
  SimNode n;
  n.kind = Kind::numbers, n.numbers = std::move(xs);
  return n;
}

SimNode SimNode::of(std::vector<std::uint8_t> bytes) {
  SimNode n;
  n.kind = Kind::bytes, n.bytes = std::move(bytes);
  return n;
}

SimNode SimNode::list() {
  SimNode n;
  n.kind = Kind::list;
  return n;
}

SimNode SimNode::object() {
  SimNode n;
  n.kind = Kind::object;
  return n;
}

SimNode& SimNode::set(std::string key, SimNode value) {
  fields.emplace_back(std::move(key), std::move(value));
  return *this;
}

void SimNode::push(SimNode value) { items.push_back(std::move(value)); }

const SimNode* SimNode::find(std::string_view key) const {
  for (const auto& [name, value] : fields) {
    if (name == key) return &value;
  }
  return nullptr;
}

namespace {

// Filled during static initialisation by the domains' registrations, read after it.
std::vector<Simulation (*)()>& pending() {
  static std::vector<Simulation (*)()> list;
  return list;
}

// Built on first use, after every registration ran: a maker may read a calculator's schema.
const std::vector<Simulation>& simulations() {
  static const std::vector<Simulation> list = [] {
    std::vector<Simulation> made;
    for (Simulation (*make)() : pending()) made.push_back(make());
    // By name: an insertion sort of their indices, done once, where std::sort's instantiation
    // for Simulation cost a module 1.4 kB of code.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < made.size(); ++i) {
      std::size_t at = order.size();
      order.push_back(i);
      for (; at > 0 && made[i].name < made[order[at - 1]].name; --at) order[at] = order[at - 1];
      order[at] = i;
    }
    std::vector<Simulation> out;
    out.reserve(made.size());
    for (std::size_t i : order) out.push_back(std::move(made[i]));
    return out;
  }();
  return list;
}

}  // namespace

SimulationRegistration::SimulationRegistration(std::initializer_list<Simulation (*)()> makers) {
  for (Simulation (*make)() : makers) pending().push_back(make);
}

std::vector<std::string> simulation_names() {
  std::vector<std::string> names;
  for (const Simulation& s : simulations()) names.push_back(s.name);
  return names;
}

Result<const Simulation*> find_simulation(std::string_view name) {
  for (const Simulation& s : simulations()) {
    if (s.name == name) return &s;
  }
  std::vector<std::string> names = simulation_names();
  return Error{ErrorCode::not_found, "simulation",
               "unknown simulation \"" + std::string(name) + "\"; choose one of " +
                   (names.empty() ? std::string("none (this engine has none)") : join(names))};
}

Result<SimNode> simulate(std::string_view name, const SimulationRequest& request) {
  Result<const Simulation*> found = find_simulation(name);
  if (!found.ok()) return found.error();
  const Simulation& sim = *found.value();
  auto known = [&](const std::string& key) {
    return std::find(sim.fields.begin(), sim.fields.end(), key) != sim.fields.end();
  };
  for (const auto& [key, value] : request.fields) {
    if (known(key) && key != sim.list_field) continue;
    if (known(key)) {
      return Error{ErrorCode::invalid_argument, key, key + " must be a list of numbers"};
    }
    return Error{ErrorCode::invalid_argument, key,
                 sim.subject + " has no " + sim.field_word + " \"" + key + "\"; its " +
                     sim.field_word + "s are " + join(sim.fields)};
  }
  double most = request.caller == SimCaller::page ? sim.page_budget : sim.budget;
  return sim.run(request, most);
}

}  // namespace scalebook
