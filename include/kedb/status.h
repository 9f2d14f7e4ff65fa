// Status and Result<T>: how every fallible kedb call reports failure.
//
// A Status is either OK or carries a code and a message that a person can
// act on ("kb/x.json:14:7: dead_ends[1].fail_rate: 1.7 is not in [0,1]").
// A failure in some input (a regex, a JSON document) also says where: a
// byte offset into that input, and the field it is in when it has fields. Result<T> holds a value or a non-OK Status;
// it is the C++20 stand-in for std::expected. These are the only error
// types kedb's functions return; a plain bool is left only where a failure
// has no reason worth telling (a cache file that does not decode and is
// rebuilt, the end of a stream).
#pragma once

#include <cassert>
#include <cstddef>
#include <string>
#include <utility>
#include <variant>

namespace kedb {

class Status {
 public:
  enum class Code { kOk, kInvalidArgument, kNotFound, kIoError, kCorrupt, kInternal };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status IoError(std::string msg) { return Status(Code::kIoError, std::move(msg)); }
  static Status Corrupt(std::string msg) { return Status(Code::kCorrupt, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }

  // The same failure, placed at byte `offset` of its input.
  Status At(std::size_t offset) && {
    offset_ = offset;
    return std::move(*this);
  }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  // The same failure, inside field `field` of its input ("dead_ends[1].why").
  Status In(std::string field) && {
    field_ = std::move(field);
    return std::move(*this);
  }
  // Where in the input the failure is, as a byte offset; kNoOffset when it
  // has no one place.
  static constexpr std::size_t kNoOffset = static_cast<std::size_t>(-1);
  std::size_t offset() const { return offset_; }
  // The field it is in ("" when none is known).
  const std::string& field() const { return field_; }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
  std::size_t offset_ = kNoOffset;
  std::string field_;
};

template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}            // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {      // NOLINT: implicit by design
    assert(!std::get<Status>(v_).ok() && "Result needs a value or a failing Status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace kedb
