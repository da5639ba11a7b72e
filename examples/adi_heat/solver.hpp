#pragma once
// The ADI solver of F independent fields (field f starts as (f+1) times the
// base mode): states in rows (block,*), work arrays in rows and columns
// (*,block), and the plan pair between them.  The columns' local blocks are
// column-major, so each column is contiguous for its solve (the transposes
// write them so: FFTW-MPI's transposed-out layout).  A step moves every
// field to columns in one batched transpose, then solves the fields' columns one
// after another while the previous field travels back to rows
// (Plan::start / Request::wait), and the fields' rows likewise while the
// next field arrives.

#include "lines.hpp"

#include <distarray/core.hpp>
#include <distarray/redist.hpp>

#include <cmath>
#include <cstring>
#include <numbers>
#include <span>
#include <string>
#include <vector>

namespace adi {

using Array = distarray::DistArray<double, 2, Kokkos::HostSpace>;
using Columns = distarray::DistArray<double, 2, Kokkos::HostSpace, Kokkos::LayoutLeft>;
using ToColumns = distarray::Plan<double, 2, Kokkos::HostSpace, Kokkos::LayoutRight, Kokkos::LayoutLeft>;
using ToRows = distarray::Plan<double, 2, Kokkos::HostSpace, Kokkos::LayoutLeft, Kokkos::LayoutRight>;
using Layout = distarray::Layout<2>;

inline int ranks() {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

class Solver {
 public:
  Solver(index_t n, int fields)
      : n_(n),
        h_(1.0 / double(n + 1)),
        rows_(Layout::parse("block,* on " + std::to_string(ranks()) + "x1", {n, n})),
        cols_(Layout::parse("*,block on 1x" + std::to_string(ranks()), {n, n})),
        to_cols_(rows_, cols_, MPI_COMM_WORLD),
        to_rows_(cols_, rows_, MPI_COMM_WORLD) {
    for (int f = 0; f < fields; ++f) {
      u_.emplace_back(rows_, MPI_COMM_WORLD);
      work_.emplace_back(rows_, MPI_COMM_WORLD);
      columns_.emplace_back(cols_, MPI_COMM_WORLD);
      u_.back().fill([&](const distarray::Index<2>& g) { return double(f + 1) * mode(g); });
    }
  }

  double dt() const { return h_ / 2; }
  std::vector<Array>& fields() { return u_; }

  /// One Peaceman-Rachford step of every field:
  /// (I - c dx2) u* = (I + c dy2) u, (I - c dy2) u' = (I + c dx2) u*.
  void step() {
    const double c = dt() / (2 * h_ * h_);
    for (std::size_t f = 0; f < u_.size(); ++f) explicit_rows(f, c);
    // One exchange moves every field to columns.
    to_cols_.execute(std::span<const Array>(work_), std::span<Columns>(columns_));
    distarray::Request back;  // one field on its way back to rows at a time
    for (std::size_t f = 0; f < u_.size(); ++f) {
      columns(f, c);  // while field f - 1 travels back
      back.wait();
      back = to_rows_.start(columns_[f], work_[f]);
      if (f > 0) implicit_rows(f - 1, c);  // while field f travels back
    }
    back.wait();
    implicit_rows(u_.size() - 1, c);
  }

  /// Largest difference from the exact solution at time t over the fields,
  /// relative to each field's amplitude (all ranks).
  double error(double t) const {
    const double decay = std::exp(-2 * std::numbers::pi * std::numbers::pi * t);
    double e = 0;
    for (std::size_t f = 0; f < u_.size(); ++f) {
      const Array& u = u_[f];
      for (index_t i = 0; i < u.local_size(); ++i) {
        const auto g = u.global_index(distarray::row_major_index(i, u.local_extents()));
        e = std::max(e, std::abs(u.local().data()[i] / double(f + 1) - decay * mode(g)));
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return e;
  }

  double transpose_seconds() const {
    const auto seconds = [](const distarray::PlanReport& r) {
      return r.pack_seconds + r.exchange_seconds + r.unpack_seconds + r.local_seconds;
    };
    return seconds(to_cols_.report()) + seconds(to_rows_.report());
  }

 private:
  double mode(const distarray::Index<2>& g) const {
    const double pi = std::numbers::pi;
    return std::sin(pi * h_ * double(g[0] + 1)) * std::sin(pi * h_ * double(g[1] + 1));
  }
  index_t local_rows() const { return u_[0].local_extents()[0]; }

  /// Along y (the local dimension of rows), the explicit half: u -> work.
  void explicit_rows(std::size_t f, double c) {
    const double* u = u_[f].local().data();
    double* w = work_[f].local().data();
    for (index_t i = 0; i < local_rows(); ++i) explicit_line(u + i * n_, 1, w + i * n_, 1, n_, c);
  }
  /// Along x (the local dimension of columns, each contiguous): implicit, then explicit.
  void columns(std::size_t f, double c) {
    const index_t ncols = columns_[f].local_extents()[1];
    double* v = columns_[f].local().data();
    line_.resize(std::size_t(n_));
    for (index_t j = 0; j < ncols; ++j) {
      double* column = v + j * n_;
      solve_line(column, n_, 1, c, scratch_);
      std::memcpy(line_.data(), column, sizeof(double) * std::size_t(n_));
      explicit_line(line_.data(), 1, column, 1, n_, c);  // reads the copy, writes the column
    }
  }
  /// Along y again, the implicit half: work -> u.
  void implicit_rows(std::size_t f, double c) {
    double* u = u_[f].local().data();
    std::memcpy(u, work_[f].local().data(), sizeof(double) * std::size_t(local_rows() * n_));
    for (index_t i = 0; i < local_rows(); ++i) solve_line(u + i * n_, n_, 1, c, scratch_);
  }

  index_t n_;
  double h_;
  Layout rows_, cols_;
  std::vector<Array> u_, work_;  // per field: state (rows), work (rows)
  std::vector<Columns> columns_;
  ToColumns to_cols_;
  ToRows to_rows_;
  std::vector<double> scratch_, line_;
};

}  // namespace adi
