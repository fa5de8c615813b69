#include "scalebook/core/result_builder.h"

#include <string>

namespace scalebook {

ResultBuilder::ResultBuilder(const Schema& schema, bool explain, ResultBuffer& buffer)
    : schema_(schema), explain_(explain), buffer_(buffer) {
  Calculation& c = buffer_.calculation;
  std::size_t n = schema.outputs.size();
  if (buffer_.schema != &schema || c.outputs.size() != n) {
    c.outputs.clear();
    for (const OutputSpec& spec : schema.outputs) c.outputs.emplace_back(spec.name, Value::none());
    buffer_.schema = &schema;
  }
  // Reused: keep each text's capacity, so a warm evaluation allocates nothing.
  for (auto& [name, value] : c.outputs) {
    value.kind = Value::Kind::none;
    value.number = 0;
    value.text.clear();
  }
  buffer_.filled.assign(n, 0);
  c.steps.clear();
  c.tables.clear();
}

std::size_t ResultBuilder::index_of(std::string_view output) {
  std::size_t n = schema_.outputs.size();
  if (next_ < n && schema_.outputs[next_].name == output) return next_++;
  for (std::size_t i = 0; i < n; ++i) {
    if (schema_.outputs[i].name == output) {
      next_ = i + 1;
      return i;
    }
  }
  if (unknown_.empty()) unknown_ = output;
  return n;
}

void ResultBuilder::set(std::string_view output, Value value) {
  std::size_t i = index_of(output);
  if (i == schema_.outputs.size()) return;
  Value& slot = buffer_.calculation.outputs[i].second;
  slot.kind = value.kind;
  slot.number = value.number;
  slot.text.assign(value.text);
  buffer_.filled[i] = 1;
}

void ResultBuilder::set(std::string_view output, double value) {
  std::size_t i = index_of(output);
  if (i == schema_.outputs.size()) return;
  Value& slot = buffer_.calculation.outputs[i].second;
  slot.kind = Value::Kind::number;
  slot.number = value;
  slot.text.clear();
  buffer_.filled[i] = 1;
}

void ResultBuilder::fill(std::string_view output, Value::Kind kind, std::string_view text) {
  std::size_t i = index_of(output);
  if (i == schema_.outputs.size()) return;
  Value& slot = buffer_.calculation.outputs[i].second;
  slot.kind = kind;
  slot.text.assign(text);
  buffer_.filled[i] = 1;
}

void ResultBuilder::set_text(std::string_view output, std::string_view text) {
  fill(output, Value::Kind::text, text);
}

void ResultBuilder::none(std::string_view output, std::string_view reason) {
  fill(output, Value::Kind::none, reason);
}

void ResultBuilder::set(std::initializer_list<std::pair<std::string_view, Value>> outputs) {
  for (const auto& [name, value] : outputs) set(name, value);
}

void ResultBuilder::step(Step step) {
  if (explain()) buffer_.calculation.steps.push_back(std::move(step));
}

void ResultBuilder::steps(std::vector<Step> steps) {
  if (!explain()) return;
  auto& all = buffer_.calculation.steps;
  if (all.empty()) {
    all = std::move(steps);
  } else {
    for (Step& s : steps) all.push_back(std::move(s));
  }
}

void ResultBuilder::table(std::string_view name, Table table) {
  bool declared = false;
  for (const TableSpec& spec : schema_.tables) declared = declared || spec.name == name;
  if (!declared) {
    if (unknown_.empty()) unknown_ = name;
    return;
  }
  if (!buffer_.tables) return;
  auto& tables = buffer_.calculation.tables;
  tables.emplace_back(std::string(name), std::move(table));
  // In schema order, whatever order they came in.
  auto rank = [&](const std::string& n) {
    std::size_t r = 0;
    while (schema_.tables[r].name != n) ++r;
    return r;
  };
  for (std::size_t i = tables.size() - 1;
       i > 0 && rank(tables[i - 1].first) > rank(tables[i].first); --i) {
    std::swap(tables[i - 1], tables[i]);
  }
}

std::optional<Error> ResultBuilder::finish() const {
  if (!unknown_.empty()) {
    return Error{
        ErrorCode::internal, std::string(unknown_),
        schema_.name + " set \"" + std::string(unknown_) + "\", which its schema does not declare"};
  }
  for (std::size_t i = 0; i < schema_.outputs.size(); ++i) {
    if (buffer_.filled[i]) continue;
    const std::string& name = schema_.outputs[i].name;
    return Error{ErrorCode::internal, name,
                 schema_.name + " did not set its output \"" + name + "\""};
  }
  return std::nullopt;
}

Table empty_table(const TableSpec& spec) {
  Table table;
  for (const OutputSpec& c : spec.columns) table.columns.push_back(c.name);
  return table;
}

}  // namespace scalebook
