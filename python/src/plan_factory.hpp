#pragma once
// make_plan_for<T>: the TypedPlan of each rank and pair of storage orders
// for one element type.  Included only by plans_<type>.cpp, one file per
// type, so that the 12 plans of each type compile in parallel.

#include "plans.hpp"

namespace distarray::python {

/// A plan for element type T between layouts of the same rank (checked by the caller).
template <class T>
std::unique_ptr<PlanBase> make_plan_for(const AnyLayout& from, const AnyLayout& to, MPI_Comm comm,
                                        const std::string& source_order, const std::string& dest_order,
                                        const PlanOptions& options) {
  return std::visit(
      [&]<int D>(const Layout<D>& f) {
        const Layout<D>& t = std::get<Layout<D>>(to.v);
        return with_order(source_order, [&]<class SO>(Tag<SO>) {
          return with_order(dest_order, [&]<class DO>(Tag<DO>) -> std::unique_ptr<PlanBase> {
            py::gil_scoped_release release;
            return std::make_unique<TypedPlan<T, D, SO, DO>>(f, t, comm, options);
          });
        });
      },
      from.v);
}

}  // namespace distarray::python
