#pragma once
// Errors are values: the engine never throws or aborts on user input, because a C++
// exception cannot cross the default WASM boundary (see docs/toolchain notes).
#include <string>
#include <utility>
#include <variant>

namespace scalebook {

// internal: a calculator broke its own contract (read an input its schema lacks); never
// the caller's fault, and every test that reaches it fails.
enum class ErrorCode { invalid_argument, out_of_range, not_found, unsupported, internal };

const char* to_string(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::invalid_argument;
  std::string field;    // the input the error is about; empty when it is about no input
  std::string message;  // lower-case, names the field and the value
  int position = -1;    // for a text input, the offending character's 0-based offset
};

// A small stand-in for std::expected, which libc++ 14 lacks.
template <class T>
class Result {
 public:
  Result(T value) : data_(std::move(value)) {}
  Result(Error error) : data_(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(data_); }
  const T& value() const { return std::get<T>(data_); }
  T& value() { return std::get<T>(data_); }
  const Error& error() const { return std::get<Error>(data_); }

 private:
  std::variant<T, Error> data_;
};

}  // namespace scalebook
