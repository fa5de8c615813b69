#include "serving_out.h"

#include <cmath>
#include <string>

#include "scalebook/core/format.h"

namespace scalebook::cli {

Json sim_json(const SimNode& n) {
  switch (n.kind) {
    case SimNode::Kind::number:
      return std::isfinite(n.number) ? Json(n.number) : Json(nullptr);
    case SimNode::Kind::text:
      return n.text;
    case SimNode::Kind::flag:
      return n.flag;
    case SimNode::Kind::numbers:
      return n.numbers;
    case SimNode::Kind::bytes:
      return n.bytes;
    case SimNode::Kind::list: {
      Json out = Json::array();
      for (const SimNode& item : n.items) out.push_back(sim_json(item));
      return out;
    }
    case SimNode::Kind::object: {
      Json out = Json::object();
      for (const auto& [key, value] : n.fields) out[key] = sim_json(value);
      return out;
    }
    default:
      return nullptr;
  }
}

namespace {

std::string number(const SimNode& n, const char* key) {
  const SimNode* v = n.find(key);
  return v && v->kind == SimNode::Kind::number ? format_number(v->number) : "none";
}

std::string padded(std::string s, std::size_t width) {
  return s + std::string(s.size() < width ? width - s.size() : 1, ' ');
}

std::string line(const SimNode& r, const char* key, const char* unit) {
  return padded(key, 24) + number(r, key) + (*unit ? " " : "") + unit + "\n";
}

}  // namespace

std::string serving_text(const SimNode& r) {
  std::string out = padded("mode", 24) + r.find("mode")->text + "\n";
  out += line(r, "replicas", "") + line(r, "chips", "") + line(r, "slots", "slots a replica");
  if (r.find("slots_by_memory")->flag) out += "(slots lowered to what fits in HBM)\n";
  if (!r.find("fits")->flag) return out + "does not fit: " + r.find("reason")->text + "\n";
  // A count keeps every digit (format_number writes 2000000 as 2e6).
  const auto requests = static_cast<long long>(r.find("requests")->number);
  out += padded("requests", 24) + std::to_string(requests) + "\n" + line(r, "duration", "s") +
         line(r, "tokens_per_s", "tokens/s") + line(r, "tokens_per_s_per_chip", "tokens/s") +
         line(r, "requests_per_s", "requests/s") + line(r, "busy_fraction", "") +
         line(r, "slot_utilization", "");
  out += "\n" + padded("seconds", 10);
  for (const char* col : {"p50", "p90", "p99", "mean"}) out += padded(col, 14);
  out += "\n";
  for (const char* row : {"ttft", "tpot", "latency"}) {
    out += padded(row, 10);
    for (const char* col : {"p50", "p90", "p99", "mean"})
      out += padded(number(*r.find(row), col), 14);
    out += "\n";
  }
  return out;
}

}  // namespace scalebook::cli
