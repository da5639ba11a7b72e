#include "report_table.hpp"

#include <distarray/core/error.hpp>
#include <distarray/support/median_timing.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

namespace distarray::cli {

Summary summarize(const PlanReport& r, const PlanReport& untimed, MPI_Comm comm,
                  const std::vector<double>& execution_seconds) {
  Summary s;
  MPI_Comm_size(comm, &s.ranks);
  const int repeat = int(execution_seconds.size());
  s.repeat = repeat;
  s.median_s = support::median_of_sorted(execution_seconds);
  s.fastest_s = execution_seconds.empty() ? 0.0 : execution_seconds.front();
  s.method = r.method;
  s.schedule = r.schedule;
  s.exchange = r.exchange;
  s.cost_model = r.cost_model;
  double times[6] = {r.plan_seconds,
                     (r.pack_seconds - untimed.pack_seconds) / repeat,
                     (r.staging_seconds - untimed.staging_seconds) / repeat,
                     (r.exchange_seconds - untimed.exchange_seconds) / repeat,
                     (r.unpack_seconds - untimed.unpack_seconds) / repeat,
                     (r.local_seconds - untimed.local_seconds) / repeat};
  MPI_Allreduce(MPI_IN_PLACE, times, 6, MPI_DOUBLE, MPI_MAX, comm);
  s.plan_s = times[0];
  s.pack_s = times[1];
  s.staging_s = times[2];
  s.exchange_s = times[3];
  s.unpack_s = times[4];
  s.local_s = times[5];
  index_t counts[3] = {r.messages_sent, r.bytes_sent, r.bytes_local};
  MPI_Allreduce(MPI_IN_PLACE, counts, 3, MPI_INT64_T, MPI_SUM, comm);
  s.messages = counts[0];
  s.bytes_sent = counts[1];
  s.bytes_local = counts[2];
  int maxima[6] = {r.peers,           r.steps,          r.pack_launches,
                   r.unpack_launches, r.local_launches, r.trial_executions - untimed.trial_executions};
  MPI_Allreduce(MPI_IN_PLACE, maxima, 6, MPI_INT, MPI_MAX, comm);
  s.max_peers = maxima[0];
  s.steps = maxima[1];
  s.pack_launches = maxima[2];
  s.unpack_launches = maxima[3];
  s.local_launches = maxima[4];
  s.trials = maxima[5];
  return s;
}

namespace {

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%10.3f ms", seconds * 1e3);
  return buf;
}

std::string mib(index_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f MiB", double(bytes) / (1 << 20));
  return buf;
}

}  // namespace

void check_json_path(const std::string& json_path, MPI_Comm comm) {
  if (json_path.empty()) return;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int error = 0;  // rank 0's errno, 0 where it can write
  if (rank == 0) {
    std::error_code ignored;
    const bool existed = std::filesystem::exists(json_path, ignored);
    // Opened to append: an existing report is not truncated by the probe.
    if (std::FILE* f = std::fopen(json_path.c_str(), "a")) {
      std::fclose(f);
      if (!existed) std::filesystem::remove(json_path, ignored);
    } else {
      error = errno != 0 ? errno : EIO;
    }
  }
  MPI_Bcast(&error, 1, MPI_INT, 0, comm);
  if (error != 0) throw Error("cannot write JSON file '" + json_path + "': " + std::strerror(error));
}

void print(const Summary& s, const std::string& json_path, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) return;
  const double total = s.pack_s + s.staging_s + s.exchange_s + s.unpack_s + s.local_s;
  const double array_bytes = double(s.elements * s.element_bytes);
  const double bandwidth = total > 0 ? array_bytes / total / 1e9 : 0.0;
  std::ostringstream t;
  t << s.title << ", " << s.ranks << " ranks, " << s.repeat << " executions\n"
    << "  from        " << s.from << "\n"
    << "  to          " << s.to << "\n"
    << "  strategy    " << s.method << " (" << s.steps << " step" << (s.steps == 1 ? "" : "s")
    << "), schedule " << s.schedule << ", exchange " << s.exchange << ", cost model " << s.cost_model << "\n"
    << "  trials      " << s.trials << " timed step executions spent trying engines (the automatic "
    << "engine's re-trials)\n"
    << "  traffic     " << s.messages << " messages, " << mib(s.bytes_sent) << " to other ranks, "
    << mib(s.bytes_local) << " copied locally, at most " << s.max_peers << " peers per rank\n"
    << "  kernels     " << s.pack_launches << " pack, " << s.unpack_launches << " unpack and "
    << s.local_launches << " local launches per execution (most on a rank)\n"
    << "  activity    time per execution (slowest rank)\n"
    << "    plan    " << ms(s.plan_s) << "   (once)\n"
    << "    pack    " << ms(s.pack_s) << "\n"
    << "    staging " << ms(s.staging_s) << "   (device <-> host, both ways)\n"
    << "    exchange" << ms(s.exchange_s) << "\n"
    << "    unpack  " << ms(s.unpack_s) << "\n"
    << "    local   " << ms(s.local_s) << "   (the message to oneself, source to destination)\n"
    << "    total   " << ms(total) << "   (mean)\n"
    << "  execution   median " << ms(s.median_s) << ", fastest " << ms(s.fastest_s)
    << " (each after a barrier, slowest rank)\n";
  char bw[64];
  std::snprintf(bw, sizeof bw, "%.3f GB/s", bandwidth);
  t << "  bandwidth   " << bw << " (array bytes / total time)\n";
  if (!s.verified.empty()) t << "  verify      " << s.verified << "\n";
  std::cout << t.str() << std::flush;
  if (json_path.empty()) return;
  std::ofstream j(json_path);
  j << "{\n  \"title\": \"" << s.title << "\",\n  \"ranks\": " << s.ranks << ",\n  \"from\": \"" << s.from
    << "\",\n  \"to\": \"" << s.to << "\",\n  \"method\": \"" << s.method << "\",\n  \"schedule\": \""
    << s.schedule << "\",\n  \"exchange\": \"" << s.exchange << "\",\n  \"cost_model\": \"" << s.cost_model
    << "\",\n  \"steps\": " << s.steps << ",\n  \"executions\": " << s.repeat
    << ",\n  \"elements\": " << s.elements << ",\n  \"element_bytes\": " << s.element_bytes
    << ",\n  \"messages\": " << s.messages << ",\n  \"bytes_mpi\": " << s.bytes_sent
    << ",\n  \"bytes_local\": " << s.bytes_local << ",\n  \"max_peers\": " << s.max_peers
    << ",\n  \"pack_launches\": " << s.pack_launches << ",\n  \"unpack_launches\": " << s.unpack_launches
    << ",\n  \"local_launches\": " << s.local_launches << ",\n  \"trial_executions\": " << s.trials
    << ",\n  \"seconds\": {\"plan\": " << s.plan_s << ", \"pack\": " << s.pack_s
    << ", \"staging\": " << s.staging_s << ", \"exchange\": " << s.exchange_s
    << ", \"unpack\": " << s.unpack_s << ", \"local\": " << s.local_s << ", \"total\": " << total
    << ", \"median\": " << s.median_s << ", \"fastest\": " << s.fastest_s
    << "},\n  \"bandwidth_gb_s\": " << bandwidth
    << ",\n  \"verified\": " << (s.verified.empty() ? "null" : (s.failed ? "false" : "true")) << "\n}\n";
  if (!j.flush()) throw Error("cannot write JSON file '" + json_path + "'");
}

}  // namespace distarray::cli
