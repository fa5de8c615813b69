// libFuzzer target for chapter 3's sharding notation: the three parsers, the page's layout
// and the array-memory and sharded-matmul calculators, with invariants checked on every
// result. An input is up to four parts joined by "|":
//   array or matmul spec | mesh | sizes (I=4096 J=8) | options (a chip id, a dtype, auto/yes/no,
//   name=value overrides such as hbm_capacity=1e9)
// The parsers see the parts whole; the calculators see them through the registry, which caps
// text inputs at 100 characters.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/core/dtype.h"
#include "scalebook/core/registry.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/sharding/sharding.h"

using namespace scalebook;

namespace {

// A broken invariant is a crash the fuzzer reports with its input.
void require(bool ok) {
  if (!ok) __builtin_trap();
}

std::vector<std::string> split(std::string_view text, char sep, std::size_t max_parts) {
  std::vector<std::string> parts(1);
  for (char c : text) {
    if (c == sep && parts.size() < max_parts) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

// A parse error names the field and points inside the text (or at the length cap).
void check_parse_error(const Error& e, const std::string& field, std::size_t size) {
  require(e.field == field);
  require(e.position >= 0);
  require(static_cast<std::size_t>(e.position) <= std::max(size, kMaxSpecLength));
  require(e.message.find("at character " + std::to_string(e.position)) != std::string::npos);
}

void round_trip_array(const ShardedArray& a) {
  const std::string text = array_text(a);
  Result<ShardedArray> again = parse_array(text);
  require(again.ok());
  require(array_text(again.value()) == text);
  require(!a.dims.empty() && a.dims.size() <= kMaxArrayDims);
}

void check_parsers(const std::string& spec, const std::string& mesh_text_in) {
  Result<ShardedArray> array = parse_array(spec);
  if (array.ok()) {
    round_trip_array(array.value());
  } else {
    check_parse_error(array.error(), "array", spec.size());
  }
  Result<MatmulSpec> matmul = parse_matmul(spec);
  if (matmul.ok()) {
    const MatmulSpec& m = matmul.value();
    round_trip_array(m.a);
    round_trip_array(m.b);
    if (m.c) round_trip_array(*m.c);
    require(!m.contracting.empty());
  } else {
    check_parse_error(matmul.error(), "spec", spec.size());
  }
  for (const std::string* text : {&spec, &mesh_text_in}) {
    Result<Mesh> mesh = parse_mesh(*text);
    if (!mesh.ok()) {
      check_parse_error(mesh.error(), "mesh", text->size());
      continue;
    }
    const Mesh& m = mesh.value();
    require(!m.axes.empty() && m.axes.size() <= kMaxMeshAxes);
    require(m.devices() >= 1 && m.devices() <= kMaxMeshDevices);
    Result<Mesh> again = parse_mesh(mesh_text(m));
    require(again.ok() && mesh_text(again.value()) == mesh_text(m));
  }
}

void check_layout(const std::string& array, const std::string& mesh) {
  Result<ShardingLayout> r = sharding_layout(array, mesh);
  if (!r.ok()) {
    const Error& e = r.error();
    require(e.field == "array" || e.field == "mesh");
    if (e.position >= 0) check_parse_error(e, e.field, (e.field == "array" ? array : mesh).size());
    return;
  }
  const ShardingLayout& l = r.value();
  require(static_cast<std::int64_t>(l.devices.size()) == l.mesh.devices());
  std::int64_t pieces = 1;
  for (const LayoutDim& d : l.dims) pieces *= d.pieces;
  require(l.mesh.devices() % pieces == 0);
  // Every block is held by the same number of devices: the copies.
  std::vector<std::int64_t> holders(static_cast<std::size_t>(pieces), 0);
  for (std::size_t i = 0; i < l.devices.size(); ++i) {
    const LayoutDevice& d = l.devices[i];
    require(d.id == static_cast<std::int64_t>(i));
    require(d.pieces.size() == l.dims.size() && d.coords.size() == l.mesh.axes.size());
    std::int64_t block = 0;
    for (std::size_t k = 0; k < l.dims.size(); ++k) {
      require(d.pieces[k] >= 0 && d.pieces[k] < l.dims[k].pieces);
      block = block * l.dims[k].pieces + d.pieces[k];
    }
    ++holders[static_cast<std::size_t>(block)];
  }
  for (std::int64_t h : holders) require(h == l.mesh.devices() / pieces);
}

const Value* find(const Calculation& c, const std::string& name) {
  for (const auto& [key, value] : c.outputs) {
    if (key == name) return &value;
  }
  return nullptr;
}

double number(const Calculation& c, const std::string& name) {
  const Value* v = find(c, name);
  require(v && v->is_number() && !std::isnan(v->number));
  return v->number;
}

bool close(double x, double y) {
  return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
}

void check_calculation(const std::string& name, const Result<Calculation>& r) {
  if (!r.ok()) {
    require(!r.error().message.empty());
    return;
  }
  const Calculation& c = r.value();
  for (const Step& s : c.steps) require(!s.output.empty() && !std::isnan(s.value));
  if (name == "array-memory") {
    const double devices = number(c, "devices");
    require(close(number(c, "bytes_total"), number(c, "bytes_per_device") * devices));
    require(close(number(c, "bytes_total"), number(c, "bytes_array") * number(c, "replication")));
    require(number(c, "replication") >= 1);
    return;
  }
  const double compute = number(c, "t_compute"), comm = number(c, "t_comm");
  require(compute > 0 && comm >= 0);
  require(number(c, "t_total") == std::max(compute, comm));
  require(close(number(c, "t_serial"), compute + comm));
  require(find(c, "overlap")->text == (comm <= compute ? "yes" : "no"));
  double sum = 0;
  for (const auto& [key, table] : c.tables) {
    if (key != "collectives") continue;
    for (const auto& row : table.rows) sum += row[4].number;
  }
  require(close(sum, comm) || (sum == 0 && comm == 0));
}

// The plan ends on the output the spec asks for, and the case is one the book names.
void check_plan(const std::string& spec, const Result<Calculation>& r) {
  if (!r.ok()) return;
  Result<MatmulSpec> m = parse_matmul(spec);
  require(m.ok());
  if (m.value().c) require(find(r.value(), "output_sharding")->text == array_text(*m.value().c));
  const std::string& c = find(r.value(), "case")->text;
  static const std::set<std::string> cases = {"1", "2", "3", "4", "2+4", "3+4"};
  require(cases.count(c) == 1);
}

void run_calculators(const std::vector<std::string>& parts) {
  Inputs options;
  for (const std::string& word : split(parts.size() > 3 ? parts[3] : "", ' ', 64)) {
    if (find_chip(word)) options["chip"] = Value::of(word);
    if (parse_dtype(word)) options["dtype"] = Value::of(word);
    if (word == "auto" || word == "yes" || word == "no") options["wraparound"] = Value::of(word);
    // name=value: a chip override (hbm_capacity=1e9, torus_dims=3) or any other input.
    auto eq = word.find('=');
    if (eq != std::string::npos && eq > 0)
      options[word.substr(0, eq)] = Value::of(word.substr(eq + 1));
  }
  Inputs sizes;
  for (std::string token : split(parts.size() > 2 ? parts[2] : "", ' ', 64)) {
    auto eq = token.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    sizes[token.substr(0, eq)] = Value::of(token.substr(eq + 1));
  }
  Inputs memory = sizes;
  memory["array"] = Value::of(parts[0]);
  if (parts.size() > 1) memory["mesh"] = Value::of(parts[1]);
  for (const auto& [key, value] : options) {
    if (key != "wraparound" && key != "peak_flops") memory[key] = value;
  }
  check_calculation("array-memory", calculate("array-memory", memory));
  Inputs matmul = sizes;
  matmul["spec"] = Value::of(parts[0]);
  if (parts.size() > 1) matmul["mesh"] = Value::of(parts[1]);
  for (const auto& [key, value] : options) matmul[key] = value;
  Result<Calculation> planned = calculate("sharded-matmul", matmul);
  check_calculation("sharded-matmul", planned);
  check_plan(parts[0], planned);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> parts = split(text, '|', 4);
  check_parsers(parts[0], parts.size() > 1 ? parts[1] : "");
  check_layout(parts[0], parts.size() > 1 ? parts[1] : "X=2, Y=2");
  run_calculators(parts);
  return 0;
}
