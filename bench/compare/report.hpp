#pragma once
// One row of the comparison and its two outputs: the tables on stdout and
// the JSON (every method's seconds, at full precision), the one stored form,
// from which bench/compare/tables.py makes docs/performance.md's tables.
// Two tables: the redistributions (distarray's plan against the peers) and
// the ScaLAPACK routines (distarray's drop-in against ScaLAPACK and COSTA's
// wrappers).

#include <distarray/core/types.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace compare {

/// One case at one size and element type: seconds per method that ran and
/// gave the right result.
struct Row {
  std::string name, from, to, type, choice;  // choice: distarray's method and engine
  std::string base = "distarray";            // the method the peers' times are divided by
  int ranks = 1;
  distarray::index_t n = 0;  // the array is n x n
  std::map<std::string, double> seconds;
  std::set<std::string> wrong;      // peers that ran and gave a wrong result
  std::set<std::string> not_built;  // peers that apply but are not in this build
  std::set<std::string> crashes;    // peers that apply but crash on this case: not run
  std::set<std::string> applies;    // peers this case is for
  double stages[3] = {0, 0, 0};     // distarray's pack, exchange, unpack per execution (slowest rank, mean)
  double plan_seconds = 0;          // distarray's plan construction (slowest rank)
};

/// The peers, as columns: a column's time is its fastest method's.
struct Column {
  std::string title;
  std::vector<std::string> methods;
};

inline const std::vector<Column>& peer_columns() {
  static const std::vector<Column> columns{
      {"FFTW-MPI", {"fftw-mpi"}},
      {"heFFTe", {"heffte-alltoallv", "heffte-p2p", "heffte-p2p-plined"}},
      {"pdgemr2d", {"pdgemr2d"}},
      {"COSTA", {"costa-transform"}},
      {"Alltoallw", {"alltoallw", "alltoallw-vector"}},
  };
  return columns;
}

inline const std::vector<Column>& routine_columns() {
  static const std::vector<Column> columns{{"ScaLAPACK", {"scalapack"}},
                                           {"COSTA wrapper", {"costa-wrapper"}}};
  return columns;
}

/// A peer column's cell: peer time / the row's base time, or why there is none.
inline std::string cell(const Row& r, const Column& c) {
  double best = 0;
  bool applies = false, wrong = false, missing = false, crashes = false;
  for (const std::string& m : c.methods) {
    applies |= r.applies.count(m) > 0;
    wrong |= r.wrong.count(m) > 0;
    missing |= r.not_built.count(m) > 0;
    crashes |= r.crashes.count(m) > 0;
    const auto it = r.seconds.find(m);
    if (it != r.seconds.end()) best = best == 0 ? it->second : std::min(best, it->second);
  }
  char text[32];
  if (best > 0) {
    std::snprintf(text, sizeof text, "%.2f%s", best / r.seconds.at(r.base), wrong ? "*" : "");
    return text;
  }
  if (wrong) return "wrong";
  if (missing) return "not built";
  if (crashes) return "crashes";
  return applies ? "?" : "-";
}

inline std::string size_text(const Row& r) { return std::to_string(r.n) + "^2"; }

inline std::string type_text(const Row& r) { return r.type == "double" ? "f64" : "c128"; }

inline void print_table(const std::vector<Row>& rows, int reps) {
  std::printf(
      "bench_compare: median of %d (slowest rank); peer columns: peer time / distarray time"
      " (higher is better for distarray; * a variant gave a wrong result), /floor: distarray time /"
      " bare MPI_Alltoallv of the same bytes\n",
      reps);
  std::printf("%-24s %2s %-7s %-4s %9s %8s", "case", "np", "size", "type", "distarray", "plan ms");
  for (const Column& c : peer_columns()) std::printf(" %14s", c.title.c_str());
  std::printf(" %7s  %s\n", "/floor", "distarray chose");
  for (const Row& r : rows) {
    std::printf("%-24s %2d %-7s %-4s %9.3f %8.2f", r.name.c_str(), r.ranks, size_text(r).c_str(),
                type_text(r).c_str(), r.seconds.at("distarray") * 1e3, r.plan_seconds * 1e3);
    for (const Column& c : peer_columns()) std::printf(" %14s", cell(r, c).c_str());
    std::printf(" %7.2f  %s\n", r.seconds.at("distarray") / r.seconds.at("floor"), r.choice.c_str());
  }
  std::printf("distarray stages, ms per execution (mean, slowest rank): pack / exchange / unpack\n");
  for (const Row& r : rows)
    std::printf("  %-24s %-7s %-4s %8.3f %8.3f %8.3f\n", r.name.c_str(), size_text(r).c_str(),
                type_text(r).c_str(), r.stages[0] * 1e3, r.stages[1] * 1e3, r.stages[2] * 1e3);
  bool header = false;  // --engines: each forced engine's time and its ratio to the floor
  for (const Row& r : rows) {
    std::string times;
    for (const auto& [method, s] : r.seconds) {
      if (method.rfind("distarray-", 0) != 0) continue;
      char text[96];
      std::snprintf(text, sizeof text, "  %s %.3f (%.2f)", method.c_str() + 10, s * 1e3,
                    s / r.seconds.at("floor"));
      times += text;
    }
    if (times.empty()) continue;
    if (!header) std::printf("distarray with each engine forced, ms per execution (/floor)\n");
    header = true;
    std::printf("  %-24s %-7s %-4s%s\n", r.name.c_str(), size_text(r).c_str(), type_text(r).c_str(),
                times.c_str());
  }
}

inline void print_routines(const std::vector<Row>& rows) {
  std::printf("ScaLAPACK routines: peer time / distarray drop-in time (higher is better for distarray)\n");
  std::printf("%-32s %2s %-7s %-4s %12s", "routine, case", "np", "size", "type", "drop-in ms");
  for (const Column& c : routine_columns()) std::printf(" %14s", c.title.c_str());
  std::printf("\n");
  for (const Row& r : rows) {
    std::printf("%-32s %2d %-7s %-4s %12.3f", r.name.c_str(), r.ranks, size_text(r).c_str(),
                type_text(r).c_str(), r.seconds.at(r.base) * 1e3);
    for (const Column& c : routine_columns()) std::printf(" %14s", cell(r, c).c_str());
    std::printf("\n");
  }
}

inline void write_json(const std::string& file, const std::vector<Row>& rows, int reps) {
  std::ofstream out(file);
  out.precision(17);  // the stored record: the tables are made from it
  const auto names = [](const std::set<std::string>& s) {
    std::string t;
    for (const std::string& m : s) t += (t.empty() ? "\"" : ", \"") + m + "\"";
    return "[" + t + "]";
  };
  out << "{\"reps\": " << reps << ", \"unit\": \"seconds\", \"cases\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    out << "  {\"case\": \"" << r.name << "\", \"ranks\": " << r.ranks << ", \"from\": \"" << r.from
        << "\", \"to\": \"" << r.to << "\", \"n\": " << r.n << ", \"type\": \"" << r.type
        << "\", \"base\": \"" << r.base << "\", \"distarray_choice\": \"" << r.choice
        << "\", \"distarray_stages\": {\"pack\": " << r.stages[0] << ", \"exchange\": " << r.stages[1]
        << ", \"unpack\": " << r.stages[2] << ", \"plan\": " << r.plan_seconds
        << "}, \"wrong\": " << names(r.wrong) << ", \"not_built\": " << names(r.not_built)
        << ", \"crashes\": " << names(r.crashes) << ", \"seconds\": {";
    std::size_t k = 0;
    for (const auto& [method, s] : r.seconds) out << (k++ ? ", " : "") << "\"" << method << "\": " << s;
    out << "}}" << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  out << "]}\n";
}

}  // namespace compare
