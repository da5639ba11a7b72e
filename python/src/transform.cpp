// transform for Python: sub(B) = alpha*op(sub(A)) + beta*sub(B) between two
// 2-D arrays of one element type (ScaLAPACK's p?gemr2d, p?tran, p?geadd).

#include "arrays.hpp"
#include "bindings.hpp"

#include <distarray/redist.hpp>

#include <pybind11/complex.h>
#include <pybind11/stl.h>

namespace distarray::python {

namespace {

MatrixOp op_from(const std::string& op) {
  if (op == "N") return MatrixOp::none;
  if (op == "T") return MatrixOp::transpose;
  if (op == "C") return MatrixOp::conjugate_transpose;
  throw UsageError("transform: op is 'N' (none), 'T' (transpose) or 'C' (conjugate transpose), not '" + op +
                   "'");
}

Index<2> pair_of(const std::vector<index_t>& v, const char* what) {
  if (v.size() != 2) throw ShapeMismatch(std::string("transform: ") + what + " takes two numbers");
  return {v[0], v[1]};
}

}  // namespace

void bind_transform(py::module_& m) {
  m.def(
      "transform",
      [](py::object alpha, const std::string& op, ArrayBase& a, const std::vector<index_t>& a_at,
         py::object beta, ArrayBase& b, const std::vector<index_t>& b_at,
         const std::vector<index_t>& extent) {
        if (a.ndim() != 2 || b.ndim() != 2)
          throw ShapeMismatch("transform: A and B are 2-dimensional arrays");
        if (a.dtype() != b.dtype())
          throw ShapeMismatch(std::string("transform: A is ") + dtype_name(a.dtype()) + " and B " +
                              dtype_name(b.dtype()));
        const MatrixOp matrix_op = op_from(op);
        with_dtype(a.dtype(), [&]<class T>(Tag<T>) {
          const T alpha_value = alpha.cast<T>(), beta_value = beta.cast<T>();
          with_order(a.order(), [&]<class OA>(Tag<OA>) {
            with_order(b.order(), [&]<class OB>(Tag<OB>) {
              auto& source = typed<T, 2, OA>(a, "A").array();
              auto& destination = typed<T, 2, OB>(b, "B").array();
              py::gil_scoped_release release;
              transform(alpha_value, matrix_op, source, pair_of(a_at, "the corner of A"), beta_value,
                        destination, pair_of(b_at, "the corner of B"), pair_of(extent, "the extent"));
            });
          });
        });
      },
      py::arg("alpha"), py::arg("op"), py::arg("a"), py::arg("a_at"), py::arg("beta"), py::arg("b"),
      py::arg("b_at"), py::arg("extent"));
}

}  // namespace distarray::python
