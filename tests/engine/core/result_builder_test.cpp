#include "scalebook/core/result_builder.h"

#include <catch2/catch.hpp>

namespace scalebook {
namespace {

Schema two_outputs() {
  Schema s{"demo", "", {}, {}};
  s.outputs = {{"time", "s", "", false, "Time"}, {"bound", "", "", true, "Bound"}};
  s.tables = {{"first", "", {}}, {"second", "", {}}};
  return s;
}

}  // namespace

TEST_CASE("the result builder puts outputs in schema order, whatever order they come in",
          "[result]") {
  Schema s = two_outputs();
  ResultBuffer buffer;
  ResultBuilder out(s, true, buffer);
  out.set("bound", Value::of("compute"));
  out.set("time", 2.5);
  out.table("second", Table{{"b"}, {}});
  out.table("first", Table{{"a"}, {}});
  CHECK_FALSE(out.finish());
  const Calculation& c = buffer.calculation;
  REQUIRE(c.outputs.size() == 2);
  CHECK(c.outputs[0].first == "time");
  CHECK(c.outputs[0].second.number == 2.5);
  CHECK(c.outputs[1].second.text == "compute");
  REQUIRE(c.tables.size() == 2);
  CHECK(c.tables[0].first == "first");
  CHECK(c.tables[1].first == "second");
}

TEST_CASE("an output left unset is an internal error naming it; none is a value", "[result]") {
  Schema s = two_outputs();
  ResultBuffer buffer;
  ResultBuilder out(s, true, buffer);
  out.set("time", 1.0);
  std::optional<Error> bad = out.finish();
  REQUIRE(bad);
  CHECK(bad->code == ErrorCode::internal);
  CHECK(bad->field == "bound");
  CHECK(bad->message == "demo did not set its output \"bound\"");
  out.none("bound");
  CHECK_FALSE(out.finish());
  CHECK(buffer.calculation.outputs[1].second.is_none());
}

TEST_CASE("setting an undeclared output or table is an internal error naming it", "[result]") {
  Schema s = two_outputs();
  ResultBuffer buffer;
  ResultBuilder out(s, true, buffer);
  out.set({{"time", Value::of(1.0)}, {"bound", Value::of("memory")}, {"tme", Value::of(2.0)}});
  std::optional<Error> bad = out.finish();
  REQUIRE(bad);
  CHECK(bad->message == "demo set \"tme\", which its schema does not declare");
  ResultBuilder again(s, true, buffer);
  again.set({{"time", Value::of(1.0)}, {"bound", Value::of("memory")}});
  again.table("third", Table{});
  REQUIRE(again.finish());
  CHECK(again.finish()->field == "third");
}

TEST_CASE("on the numbers-only path steps are dropped, and a reused buffer starts clean",
          "[result]") {
  Schema s = two_outputs();
  ResultBuffer buffer;
  {
    ResultBuilder out(s, true, buffer);
    out.set({{"time", Value::of(1.0)}, {"bound", Value::of("memory")}});
    out.step({"Time", "T = 1", 1, "s", "time", {}});
    CHECK(buffer.calculation.steps.size() == 1);
  }
  ResultBuilder out(s, false, buffer);
  CHECK(buffer.calculation.steps.empty());
  CHECK(buffer.calculation.outputs[1].second.is_none());
  out.step({"Time", "T = 1", 1, "s", "time", {}});
  CHECK(buffer.calculation.steps.empty());
  REQUIRE(out.finish());  // nothing set yet in this evaluation
}

TEST_CASE("a buffer kept for number outputs only drops tables, and still names an undeclared one",
          "[result]") {
  Schema s = two_outputs();
  ResultBuffer buffer;
  buffer.tables = false;
  ResultBuilder out(s, false, buffer);
  CHECK_FALSE(out.tables());
  out.set("time", 1.0);
  out.set_text("bound", "memory");
  out.table("first", Table{{"a"}, {}});
  CHECK_FALSE(out.finish());
  CHECK(buffer.calculation.tables.empty());
  out.table("third", Table{});
  REQUIRE(out.finish());
  CHECK(out.finish()->field == "third");
}

TEST_CASE("a number set over a text output leaves no text behind", "[result]") {
  Schema s = two_outputs();
  ResultBuffer buffer;
  ResultBuilder out(s, false, buffer);
  out.set_text("time", "memory");
  out.set("time", 2.5);
  const Value& time = buffer.calculation.outputs[0].second;
  CHECK(time.is_number());
  CHECK(time.number == 2.5);
  CHECK(time.text.empty());
}

}  // namespace scalebook
