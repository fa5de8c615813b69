#include "text_out.h"

#include <cmath>
#include <cstdio>

#include "scalebook/format.h"

namespace scalebook::cli {
namespace {

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string value_text(const Value& v, const std::string& unit) {
  if (v.is_text()) return v.text;
  if (v.is_none()) return "none";
  std::string exact = format_number(v.number) + (unit.empty() ? "" : " " + unit);
  std::string human = si(v.number, unit);
  return human == exact ? exact : pad(exact, 24) + human;
}

}  // namespace

std::string si(double x, const std::string& unit) {
  static const struct {
    double scale;
    const char* prefix;
  } prefixes[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"},  {1e6, "M"},  {1e3, "k"},
                  {1, ""},     {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
  bool prefixable =
      unit == "s" || unit == "B" || unit == "B/s" || unit == "FLOP" || unit == "FLOP/s";
  char buf[64];
  if (!prefixable || x == 0 || !std::isfinite(x)) {
    return format_number(x) + (unit.empty() ? "" : " " + unit);
  }
  for (const auto& p : prefixes) {
    if (std::fabs(x) >= p.scale * 0.9995) {
      std::snprintf(buf, sizeof buf, "%.3g %s%s", x / p.scale, p.prefix, unit.c_str());
      return buf;
    }
  }
  std::snprintf(buf, sizeof buf, "%.3g %s", x, unit.c_str());
  return buf;
}

std::string to_text(const Schema& schema) {
  std::string out = schema.name + ": " + schema.description + "\n\ninputs:\n";
  for (const InputSpec& in : schema.inputs) {
    std::string range;
    if (in.kind == InputKind::choice) {
      for (const std::string& c : in.choices) range += (range.empty() ? "" : " | ") + c;
    } else {
      range = std::string(in.min_exclusive ? "> " : ">= ") + format_number(in.min) +
              ", <= " + format_number(in.max) + (in.kind == InputKind::count ? ", whole" : "");
    }
    std::string def = in.default_value.is_none()   ? "(from chip)"
                      : in.default_value.is_text() ? in.default_value.text
                                                   : format_number(in.default_value.number);
    out += "  " + pad(in.name, 20) + pad(in.unit, 8) + pad("default " + def, 24) + range +
           "\n      " + in.description + "\n";
  }
  out += "\noutputs:\n";
  for (const OutputSpec& o : schema.outputs) {
    out += "  " + pad(o.name, 22) + pad(o.unit, 8) + o.description + "\n";
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
    out += pad(name, 22) + value_text(value, unit) + "\n";
  }
  if (explain) {
    out += "\nsteps:\n";
    for (const Step& s : calc.steps) out += "  " + s.label + "\n    " + s.latex + "\n";
  }
  return out;
}

std::string to_text(const Chip& chip) {
  std::string out = chip.id + "  " + chip.name + " (" + chip.vendor + ")\n";
  for (const PeakFlops& p : chip.peaks) {
    out += "  " + pad(std::string("peak ") + to_string(p.dtype), 20) + si(p.flops_per_s, "FLOP/s") +
           "\n";
  }
  out += "  " + pad("hbm_bandwidth", 20) + si(chip.hbm_bandwidth, "B/s") + "\n";
  out += "  " + pad("hbm_capacity", 20) + si(chip.hbm_capacity, "B") + "\n";
  out += "  " + pad("comm_bandwidth", 20) + si(chip.comm_bandwidth, "B/s") + "  (" +
         chip.comm_link + ")\n";
  for (const SourceNote& n : chip.notes) out += "    note " + n.field + ": " + n.note + "\n";
  return out;
}

}  // namespace scalebook::cli
