#pragma once
// A benchmark's stored result (docs/bench/*.json): what ran (the program, its
// command line, the rank count, the day) and its rows, each a flat object of
// numbers and strings.  It is the one stored form of a run: bench/tables.py
// makes docs/performance.md's tables from it.
//
//   distarray::support::JsonRecord record("bench_plan_build", argc, argv, comm);
//   record.row().set("case", c.name).set("again_s", seconds);
//   record.write(file);   // rank 0 writes; nothing for an empty name

#include <distarray/core/error.hpp>

#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace distarray::support {

class JsonRecord {
 public:
  /// One row: its fields in the order they were set.
  class Row {
   public:
    Row& set(const std::string& key, const std::string& text) { return add(key, quoted(text)); }
    Row& set(const std::string& key, const char* text) { return set(key, std::string(text)); }
    Row& set(const std::string& key, long long whole) { return add(key, std::to_string(whole)); }
    Row& set(const std::string& key, int whole) { return set(key, static_cast<long long>(whole)); }
    /// JSON has no NaN or infinity: those are written as null.
    Row& set(const std::string& key, double number) {
      if (!std::isfinite(number)) return add(key, "null");
      char text[32];
      std::snprintf(text, sizeof text, "%.9g", number);
      return add(key, text);
    }
    Row& set(const std::string& key, bool flag) { return add(key, flag ? "true" : "false"); }

    std::string text() const {
      std::string out = "{";
      for (std::size_t i = 0; i < fields_.size(); ++i)
        out += (i ? ", " : "") + quoted(fields_[i].first) + ": " + fields_[i].second;
      return out + "}";
    }

   private:
    Row& add(const std::string& key, std::string value) {
      fields_.emplace_back(key, std::move(value));
      return *this;
    }
    std::vector<std::pair<std::string, std::string>> fields_;
  };

  JsonRecord(std::string bench, int argc, char** argv, MPI_Comm comm)
      : bench_(std::move(bench)), comm_(comm) {
    for (int i = 0; i < argc; ++i) command_ += (i ? " " : "") + std::string(argv[i]);
    MPI_Comm_size(comm, &ranks_);
  }

  /// A new row at the end.
  Row& row() { return rows_.emplace_back(); }
  /// A field of the whole run (a unit, the array's shape), beside its rows.
  void note(const std::string& key, const std::string& text) { header_.set(key, text); }
  void note(const std::string& key, double number) { header_.set(key, number); }

  /// Rank 0 writes the record to `file` (no file for an empty name).
  /// Collective: where rank 0 cannot write it, every rank throws UsageError.
  void write(const std::string& file) const {
    if (file.empty()) return;
    int rank = 0, written = 0;
    MPI_Comm_rank(comm_, &rank);
    if (rank == 0) written = write_to(file) ? 1 : 0;
    MPI_Bcast(&written, 1, MPI_INT, 0, comm_);
    if (!written) throw UsageError("cannot write the record to '" + file + "'");
  }

 private:
  bool write_to(const std::string& file) const {
    std::ofstream out(file);
    if (!out) return false;
    Row head;
    head.set("bench", bench_).set("command", command_).set("ranks", ranks_).set("date", today());
    std::string text = head.text(), notes = header_.text();
    text.pop_back();
    if (notes.size() > 2) text += ", " + notes.substr(1, notes.size() - 2);
    out << text << ",\n \"rows\": [\n";
    for (std::size_t i = 0; i < rows_.size(); ++i)
      out << "  " << rows_[i].text() << (i + 1 < rows_.size() ? ",\n" : "\n");
    out << "]}\n";
    return bool(out.flush());
  }

  static std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
        out += escaped;
      } else {
        out += c;
      }
    }
    return out + "\"";
  }
  static std::string today() {
    const std::time_t now = std::time(nullptr);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
    return text;
  }

  std::string bench_, command_;
  MPI_Comm comm_;
  int ranks_ = 1;
  Row header_;
  std::vector<Row> rows_;
};

}  // namespace distarray::support
