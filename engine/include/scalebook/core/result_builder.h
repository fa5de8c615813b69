#pragma once
#include <functional>
// The one way a calculator hands back its result. The registry gives each calculation a
// builder over a buffer it may reuse (a prepared calculation keeps one across evaluations,
// so the numbers-only path allocates nothing once warm); the calculator sets its outputs by
// name, adds steps and tables, and the registry checks the contract when it finishes:
// every declared output set (a value, or explicitly none), no undeclared name.
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "scalebook/core/explain_only.h"
#include "scalebook/core/schema.h"
#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

namespace scalebook {

// What a builder writes into: the calculation and which outputs were set. Owned by the
// registry, reused by a prepared calculation.
struct ResultBuffer {
  Calculation calculation;
  std::vector<char> filled;        // one per output of the schema
  const Schema* schema = nullptr;  // whose outputs `calculation` is laid out for
  // False for a prepared calculation, whose caller reads number outputs only: its tables
  // would be dropped unread, so none is built.
  bool tables = true;
};

// A table with the spec's columns, in order, and no rows yet.
Table empty_table(const TableSpec& spec);

class ResultBuilder {
 public:
  ResultBuilder(const Schema& schema, bool explain, ResultBuffer& buffer);

  // False on the numbers-only path: steps are dropped, so build none. Always false in a
  // build without worked steps (kExplains), where the code that builds them is dropped.
  bool explain() const { return kExplains && explain_; }
  const Schema& schema() const { return schema_; }
  // False where tables are dropped unread (a prepared calculation): build none.
  bool tables() const { return buffer_.tables; }

  void set(std::string_view output, Value value);
  // A number output, written in place: no Value is built on the way (the numbers-only path's
  // commonest call).
  void set(std::string_view output, double value);
  // A text output, copied into the reused buffer (no temporary string).
  void set_text(std::string_view output, std::string_view text);
  // Several at once, in any order: out.set({{"t_compute", Value::of(t)}, ...}).
  void set(std::initializer_list<std::pair<std::string_view, Value>> outputs);
  // Declares that `output` has no value here, and why: "not applicable: TPUs only",
  // "never compute-bound: ...". The contract test holds every absent output to a reason.
  void none(std::string_view output, std::string_view reason);
  // Absent without a reason: only for code not yet saying why (the contract test names it).
  void none(std::string_view output) { none(output, {}); }

  // The caller's progress report (CalculateOptions::progress), or nothing.
  void set_progress(const std::function<void(double)>* progress) { progress_ = progress; }
  void progress(double fraction) const {
    if (progress_ && *progress_) (*progress_)(fraction);
  }

  void step(Step step);
  void steps(std::vector<Step> steps);
  void table(std::string_view name, Table table);

  // The contract's first breach (an internal error), or none.
  std::optional<Error> finish() const;

 private:
  std::size_t index_of(std::string_view output);
  // A text output's value, or an absent one's reason: `text` in the slot of `kind`.
  void fill(std::string_view output, Value::Kind kind, std::string_view text);

  const Schema& schema_;
  bool explain_;
  ResultBuffer& buffer_;
  std::size_t next_ = 0;  // outputs mostly come in schema order: look here first
  std::string_view unknown_;
  const std::function<void(double)>* progress_ = nullptr;
};

}  // namespace scalebook
