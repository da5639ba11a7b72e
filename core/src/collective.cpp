#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>

#include <new>
#include <vector>

namespace distarray::detail {

namespace {

/// The error classes an agreed error keeps; the most derived class first.
enum class ErrorKind : int { allocation, layout, shape, mpi, schedule, checkpoint, usage, other };

struct Described {
  ErrorKind kind = ErrorKind::other;
  int mpi_code = 0;
  std::string message;
};

Described describe(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const AllocationError& x) {
    return {ErrorKind::allocation, 0, x.what()};
  } catch (const LayoutError& x) {
    return {ErrorKind::layout, 0, x.what()};
  } catch (const ShapeMismatch& x) {
    return {ErrorKind::shape, 0, x.what()};
  } catch (const MpiError& x) {
    return {ErrorKind::mpi, x.code(), x.what()};
  } catch (const ScheduleError& x) {
    return {ErrorKind::schedule, 0, x.what()};
  } catch (const CheckpointError& x) {
    return {ErrorKind::checkpoint, 0, x.what()};
  } catch (const UsageError& x) {
    return {ErrorKind::usage, 0, x.what()};
  } catch (const std::bad_alloc& x) {
    return {ErrorKind::allocation, 0, std::string("out of memory (") + x.what() + ")"};
  } catch (const std::exception& x) {
    return {ErrorKind::other, 0, x.what()};
  } catch (...) {
    return {ErrorKind::other, 0, "unknown exception"};
  }
}

[[noreturn]] void raise(const Described& d) {
  switch (d.kind) {
    case ErrorKind::allocation:
      throw AllocationError(d.message);
    case ErrorKind::layout:
      throw LayoutError(d.message);
    case ErrorKind::shape:
      throw ShapeMismatch(d.message);
    case ErrorKind::mpi:
      throw MpiError(d.mpi_code, d.message);
    case ErrorKind::schedule:
      throw ScheduleError(d.message);
    case ErrorKind::checkpoint:
      throw CheckpointError(d.message);
    case ErrorKind::usage:
      throw UsageError(d.message);
    case ErrorKind::other:
      break;
  }
  throw Error(d.message);
}

}  // namespace

void agree_on_error(MPI_Comm comm, std::exception_ptr local) { agree_on_error(comm, local, 0, ""); }

void agree_on_error(MPI_Comm comm, std::exception_ptr local, long value, const std::string& what, bool* any) {
  Agreement agreement(comm, std::move(local), value, what, any && *any);
  agreement.reduce_and_conclude(comm);
  if (any) *any = agreement.any();
}

Agreement::Agreement(MPI_Comm comm, std::exception_ptr local, long value, std::string what, bool any)
    : values{0, value, -value, any}, comm_(comm), local_(std::move(local)), what_(std::move(what)) {
  // One maximum over {size - lowest failing rank, value, -value, any}.
  if (local_) values[0] = ranks_of(comm_) - rank_of(comm_);
}

void Agreement::reduce_and_conclude(MPI_Comm comm) {
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values, 4, MPI_LONG, MPI_MAX, comm));
  conclude();
}

void Agreement::conclude() {
  if (values[0] == 0) {
    if (values[1] != -values[2])
      throw UsageError("ranks disagree on " + what_ + ": from " + std::to_string(-values[2]) + " to " +
                       std::to_string(values[1]) + " on different ranks; nothing was done");
    return;
  }
  const int rank = rank_of(comm_);
  const int first = ranks_of(comm_) - int(values[0]);
  Described d;
  if (rank == first) {
    d = describe(local_);
    d.message = utf8_prefix(d.message, 8192);
  }
  int header[3] = {int(d.kind), d.mpi_code, int(d.message.size())};
  DISTARRAY_MPI_CHECK(MPI_Bcast(header, 3, MPI_INT, first, comm_));
  std::vector<char> text(std::size_t(header[2]) + 1, '\0');
  if (rank == first) d.message.copy(text.data(), d.message.size());
  DISTARRAY_MPI_CHECK(MPI_Bcast(text.data(), header[2], MPI_CHAR, first, comm_));
  // Every rank, the failing one too, throws the same class (a std::bad_alloc
  // becomes an AllocationError everywhere).
  raise({ErrorKind(header[0]), header[1], std::string(text.data(), std::size_t(header[2]))});
}

std::string utf8_prefix(const std::string& text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t end = limit;
  // Back up over continuation bytes (10xxxxxx) to the start of a character.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

}  // namespace distarray::detail
