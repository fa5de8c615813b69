#include "text_out.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "scalebook/core/format.h"

namespace scalebook::cli {
namespace {

// Characters a terminal shows, not bytes: "µs" is three bytes of UTF-8 in two columns.
std::size_t columns(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string pad(std::string s, size_t width) {
  const std::size_t shown = columns(s);
  if (shown < width) s.append(width - shown, ' ');
  return s;
}

std::string value_text(const Value& v, const std::string& unit) {
  if (v.is_text()) return v.text;
  if (v.is_none()) return v.text.empty() ? "none" : "none (" + v.text + ")";
  std::string exact = format_number(v.number) + (unit.empty() ? "" : " " + unit);
  std::string human = si(v.number, unit);
  // Only a prefixed form ("5.08 ms") adds anything to the exact value.
  bool prefixed = !unit.empty() && human.size() > unit.size() + 1 &&
                  human[human.size() - unit.size() - 1] != ' ';
  return prefixed ? pad(exact, 24) + human : exact;
}

// A table as aligned columns under their labels; a column whose text runs long (inputs, a
// reason) goes on its own line under its row, so the rest still fits a terminal.
std::string table_text(const TableSpec* spec, const Table& table) {
  const std::size_t n = table.columns.size();
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> width(n, 0);
  for (const std::vector<Value>& row : table.rows) {
    cells.emplace_back();
    for (std::size_t i = 0; i < n && i < row.size(); ++i) {
      std::string unit = spec && i < spec->columns.size() ? spec->columns[i].unit : "";
      std::string text = row[i].is_number() ? si(row[i].number, unit) : value_text(row[i], unit);
      width[i] = std::max(width[i], columns(text));
      cells.back().push_back(std::move(text));
    }
  }
  auto label = [&](std::size_t i) {
    return spec && i < spec->columns.size() && !spec->columns[i].label.empty()
               ? spec->columns[i].label
               : table.columns[i];
  };
  constexpr std::size_t kLong = 48;
  std::string head;
  for (std::size_t i = 0; i < n; ++i) {
    if (width[i] > kLong) continue;
    width[i] = std::max(width[i], columns(label(i)));
    head += pad(label(i), width[i] + 2);
  }
  std::string out = "  " + head + "\n";
  for (const std::vector<std::string>& row : cells) {
    std::string line, below;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (width[i] > kLong)
        below += "      " + label(i) + ": " + row[i] + "\n";
      else
        line += pad(row[i], width[i] + 2);
    }
    out += "  " + line + "\n" + below;
  }
  return out;
}

}  // namespace

std::string si(double x, const std::string& unit) { return format_value(x, unit, "si"); }

std::string to_text(const Schema& schema) {
  std::string out = schema.name + ": " + schema.description + "\n\ninputs:\n";
  for (const InputSpec& in : schema.inputs) {
    std::string range;
    if (in.kind == InputKind::choice) {
      for (const std::string& c : in.choices) range += (range.empty() ? "" : " | ") + c;
    } else if (in.kind == InputKind::text) {
      range = "text, up to " + std::to_string(kMaxTextLength) + " characters";
    } else {
      range = std::string(in.min_exclusive ? "> " : ">= ") + format_number(in.min) +
              ", <= " + format_number(in.max) + (in.kind == InputKind::count ? ", whole" : "");
    }
    std::string def = in.default_value.is_none()   ? "(optional)"
                      : in.default_value.is_text() ? in.default_value.text
                                                   : format_number(in.default_value.number);
    out += "  " + pad(in.name, 20) + pad(in.unit, std::max<size_t>(8, in.unit.size() + 1)) +
           pad("default " + def, 24) + range + "\n      " + in.description + "\n";
  }
  if (takes_chip_overrides(schema)) {
    out += "  and any number field of the chip as an override (scalebook chip ID lists them)\n";
  }
  if (!schema.dimensions.empty()) out += "  and " + schema.dimensions + "\n";
  out += "\noutputs:\n";
  for (const OutputSpec& o : schema.outputs) {
    out += "  " + pad(o.name, std::max<size_t>(22, o.name.size() + 1)) + pad(o.unit, 8) +
           o.description + "\n";
  }
  for (const TableSpec& t : schema.tables) {
    out += "  " + pad(t.name, 30) + "list: " + t.description + "\n";
    for (const OutputSpec& c : t.columns) {
      out += "    " + pad(c.name, 20) + pad(c.unit, 8) + c.description + "\n";
    }
  }
  return out;
}

std::string to_text(const Schema& schema, const Calculation& calc, bool explain) {
  std::string out;
  for (const auto& [name, value] : calc.outputs) {
    std::string unit;
    for (const OutputSpec& o : schema.outputs) {
      if (o.name == name) unit = o.unit;
    }
    // Code (a JAX mesh) is for a file: --export prints it alone.
    if (value.is_text() && value.text.find('\n') != std::string::npos) {
      out +=
          pad(name, std::max<size_t>(22, name.size() + 2)) + "(--export " + name + " prints it)\n";
      continue;
    }
    out += pad(name, std::max<size_t>(22, name.size() + 2)) + value_text(value, unit) + "\n";
  }
  for (const auto& [name, table] : calc.tables) {
    const TableSpec* spec = nullptr;
    for (const TableSpec& t : schema.tables) {
      if (t.name == name) spec = &t;
    }
    out += "\n" + name + (table.rows.empty() ? ": none\n" : ":\n");
    if (table.rows.empty()) continue;
    out += table_text(spec, table);
  }
  if (explain) {
    out += "\nsteps:\n";
    for (const Step& s : calc.steps) out += "  " + s.label + "\n    " + s.latex + "\n";
  }
  return out;
}

std::string to_text(const Chip& chip) {
  std::string out = chip.id + "  " + chip.name + " (" + chip.vendor + ")\n";
  // Each note follows its field; neighbours sharing a note (the peaks, an ICI table) get it once.
  std::string pending;
  auto flush = [&] {
    if (!pending.empty()) out += "      " + pending + "\n";
  };
  auto explained = [&](const std::string& field) {  // a missing value with its own note
    for (const SourceNote& n : chip.notes) {
      if (n.field == field) return true;
    }
    return false;
  };
  for (const ChipField& f : chip_fields(chip)) {
    if (f.value.is_none() && !explained(f.name)) continue;
    if (f.note != pending) {
      flush();
      pending = f.note;
    }
    out += "  " + pad(f.name, 28) + value_text(f.value, f.unit) + "\n";
  }
  flush();
  return out;
}

std::string to_text_line(const Model& model) {
  return pad(model.id, 20) + pad(model.name, 32) +
         format_value(count_params(model).total, "params", "sci") + " params\n";
}

std::string to_text(const Model& model) {
  ParamCounts params = count_params(model);
  std::string out = model.id + "  " + model.name + " (" +
                    format_value(params.total, "params", "sci") + " params, " +
                    format_value(params.active, "params", "sci") + " active)\n";
  // Each note follows its field; neighbours sharing a note (the shape) get it once.
  std::string pending;
  for (const ModelField& f : model_fields(model)) {
    if (f.note != pending) {
      if (!pending.empty()) out += "      " + pending + "\n";
      pending = f.note;
    }
    out += "  " + pad(f.name, 20) + value_text(f.value, f.unit) + "\n";
  }
  if (!pending.empty()) out += "      " + pending + "\n";
  return out;
}

}  // namespace scalebook::cli
