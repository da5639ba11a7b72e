#include <distarray/core/detail/collective.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/cost_model.hpp>
#include <distarray/redist/wisdom.hpp>

#include "exact_text.hpp"      // core/src
#include "same_arguments.hpp"  // core/src

#include <cmath>
#include <cstdlib>
#include <vector>

namespace distarray {

double checked_cost_parameter(double value, const std::string& what) {
  if (!std::isfinite(value) || value < 0)
    throw Error(what + " must be a finite number >= 0, got " + std::to_string(value));
  return value;
}

namespace {

/// Seconds for one round trip of `bytes` between ranks 0 and 1, best of a few.
double round_trip(MPI_Comm comm, int rank, std::vector<char>& buf, int bytes) {
  double best = 1e30;
  for (int rep = 0; rep < 6; ++rep) {
    DISTARRAY_MPI_CHECK(MPI_Barrier(comm));
    const double start = MPI_Wtime();
    if (rank == 0) {
      DISTARRAY_MPI_CHECK(MPI_Send(buf.data(), bytes, MPI_BYTE, 1, 0, comm));
      DISTARRAY_MPI_CHECK(MPI_Recv(buf.data(), bytes, MPI_BYTE, 1, 0, comm, MPI_STATUS_IGNORE));
    } else if (rank == 1) {
      DISTARRAY_MPI_CHECK(MPI_Recv(buf.data(), bytes, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE));
      DISTARRAY_MPI_CHECK(MPI_Send(buf.data(), bytes, MPI_BYTE, 0, 0, comm));
    }
    best = std::min(best, MPI_Wtime() - start);
  }
  return best;
}

/// The calibration cached on a communicator, freed with it.
int cache_keyval() {
  static int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(
        MPI_COMM_NULL_COPY_FN,
        [](MPI_Comm, int, void* value, void*) {
          delete static_cast<CostModel*>(value);
          return MPI_SUCCESS;
        },
        &k, nullptr);
    return k;
  }();
  return keyval;
}

std::optional<double> from_environment(const char* name) {
  const char* text = std::getenv(name);
  if (!text) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0') throw Error(std::string(name) + " is not a number: '" + text + "'");
  return checked_cost_parameter(v, name);
}

/// Measures ts and te with a ping-pong between ranks 0 and 1 (collective);
/// defaults on a communicator of one rank.
CostModel calibrate_cost_model(MPI_Comm comm) {
  const int size = detail::ranks_of(comm), rank = detail::rank_of(comm);
  CostModel m;
  if (size < 2) return m;
  constexpr int large = 1 << 20;
  std::vector<char> buf(large);
  const double t_small = round_trip(comm, rank, buf, 8) / 2;
  const double t_large = round_trip(comm, rank, buf, large) / 2;
  double values[2] = {t_small, std::max(0.0, (t_large - t_small) / (large - 8))};
  DISTARRAY_MPI_CHECK(MPI_Bcast(values, 2, MPI_DOUBLE, 0, comm));
  m.ts = values[0];
  m.te = values[1];
  m.source = "calibrated";
  return m;
}

}  // namespace

CostModel cost_model_for(MPI_Comm comm, std::optional<double> ts, std::optional<double> te, Wisdom* wisdom) {
  // Agreed before anything is read or measured: a variable set on some ranks
  // only had the others calibrate (collective) alone, a hang, and ranks
  // given different values chose different plans.
  const auto given = [](const std::optional<double>& v) { return v ? detail::exact_text(*v) : "none"; };
  const auto variable = [](const char* name) {
    const char* v = std::getenv(name);
    return v ? "'" + std::string(v) + "'" : std::string("unset");
  };
  detail::agree_same_arguments(comm, "the cost model",
                               {{"ts", given(ts)},
                                {"te", given(te)},
                                {"the environment variable DISTARRAY_TS", variable("DISTARRAY_TS")},
                                {"the environment variable DISTARRAY_TE", variable("DISTARRAY_TE")}});
  if (ts) checked_cost_parameter(*ts, "ts");
  if (te) checked_cost_parameter(*te, "te");
  const auto env_ts = from_environment("DISTARRAY_TS");
  const auto env_te = from_environment("DISTARRAY_TE");
  CostModel m;
  if (!(ts || env_ts) || !(te || env_te)) {  // something must be measured
    void* cached = nullptr;
    int found = 0;
    DISTARRAY_MPI_CHECK(MPI_Comm_get_attr(comm, cache_keyval(), &cached, &found));
    int size = 1;
    DISTARRAY_MPI_CHECK(MPI_Comm_size(comm, &size));
    const auto known = wisdom && size > 1 ? wisdom->cost(size) : std::nullopt;
    if (found) {
      m = *static_cast<CostModel*>(cached);
    } else if (known) {
      m.ts = known->first;
      m.te = known->second;
      m.source = "wisdom";
    } else {
      m = calibrate_cost_model(comm);
    }
    if (!found) DISTARRAY_MPI_CHECK(MPI_Comm_set_attr(comm, cache_keyval(), new CostModel(m)));
    if (wisdom && !known && m.source == "calibrated") wisdom->record_cost(size, m.ts, m.te, comm);
  }
  if (env_ts || env_te) m.source = "environment";
  if (env_ts) m.ts = *env_ts;
  if (env_te) m.te = *env_te;
  if (ts || te) m.source = "options";
  if (ts) m.ts = *ts;
  if (te) m.te = *te;
  return m;
}

}  // namespace distarray
