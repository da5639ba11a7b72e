#pragma once
// The ADI example's work along one grid line: the implicit half (a
// tridiagonal solve, Thomas) and the explicit half of a Peaceman-Rachford
// step, with zero boundary values beyond both ends of the line.

#include <distarray/core/types.hpp>

#include <vector>

namespace adi {

using distarray::index_t;

/// Solves (1 + 2c) x_k - c (x_{k-1} + x_{k+1}) = d_k in place (Thomas), with
/// zero values beyond both ends; elements `stride` apart.
inline void solve_line(double* d, index_t n, index_t stride, double c, std::vector<double>& scratch) {
  scratch.resize(std::size_t(n));
  const double b = 1 + 2 * c;
  scratch[0] = -c / b;
  d[0] /= b;
  for (index_t k = 1; k < n; ++k) {
    const double m = b + c * scratch[std::size_t(k - 1)];
    scratch[std::size_t(k)] = -c / m;
    d[k * stride] = (d[k * stride] + c * d[(k - 1) * stride]) / m;
  }
  for (index_t k = n - 2; k >= 0; --k) d[k * stride] -= scratch[std::size_t(k)] * d[(k + 1) * stride];
}

/// y = x + c (x_{k-1} - 2 x_k + x_{k+1}) along a line (x and y with their
/// own strides), zero beyond its ends.
inline void explicit_line(const double* x, index_t xs, double* y, index_t ys, index_t n, double c) {
  for (index_t k = 0; k < n; ++k) {
    const double left = k > 0 ? x[(k - 1) * xs] : 0.0, right = k + 1 < n ? x[(k + 1) * xs] : 0.0;
    y[k * ys] = x[k * xs] + c * (left - 2 * x[k * xs] + right);
  }
}

}  // namespace adi
