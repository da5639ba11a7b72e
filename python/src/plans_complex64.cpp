// The plans of complex64 arrays (plans.hpp).
#include "plan_factory.hpp"

namespace distarray::python {
template std::unique_ptr<PlanBase> make_plan_for<std::complex<float>>(const AnyLayout&, const AnyLayout&,
                                                                      MPI_Comm, const std::string&,
                                                                      const std::string&, const PlanOptions&);
}  // namespace distarray::python
