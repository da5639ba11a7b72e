# distarray_find_kokkos(): find Kokkos and make Kokkos::kokkos usable.
#
# Upstream Kokkos 4.x (-DKokkos_ROOT=..., any backend) is used as it is.
# Debian 12 ships Kokkos 3.4.1 inside Trilinos (libtrilinos-kokkos-dev); its
# config computes Kokkos::kokkos's include directory from the wrong prefix
# (<libdir>/../include, which does not exist), while the headers live in the
# directory its Kokkos_INCLUDE_DIRS names (<sysinclude>/trilinos).  CMake refuses
# an imported target with a missing include directory, so we replace missing
# directories with the existing Kokkos_INCLUDE_DIRS.
macro(distarray_find_kokkos)
  find_package(Kokkos REQUIRED)
  get_target_property(_da_kokkos_inc Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
  if(_da_kokkos_inc)
    set(_da_kokkos_fixed "")
    set(_da_kokkos_broken FALSE)
    foreach(_da_dir IN LISTS _da_kokkos_inc)
      if(_da_dir MATCHES "^\\$<" OR EXISTS "${_da_dir}")
        list(APPEND _da_kokkos_fixed "${_da_dir}")
      else()
        set(_da_kokkos_broken TRUE)
      endif()
    endforeach()
    if(_da_kokkos_broken)
      foreach(_da_dir IN LISTS Kokkos_INCLUDE_DIRS)
        get_filename_component(_da_dir "${_da_dir}" REALPATH)
        if(EXISTS "${_da_dir}/Kokkos_Core.hpp")
          list(APPEND _da_kokkos_fixed "${_da_dir}")
        endif()
      endforeach()
      if(NOT _da_kokkos_fixed)
        message(FATAL_ERROR "Kokkos::kokkos names missing include directories "
                            "(${_da_kokkos_inc}) and Kokkos_INCLUDE_DIRS has no Kokkos_Core.hpp")
      endif()
      set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_da_kokkos_fixed}")
      message(STATUS "Kokkos ${Kokkos_VERSION}: include directory repaired to ${_da_kokkos_fixed}")
    endif()
  endif()
  # Which Kokkos and which backends this build uses (Debian's 3.4 is Serial only).
  set(_da_kokkos_backends "${Kokkos_DEVICES}")
  if(NOT _da_kokkos_backends)
    foreach(_da_backend SERIAL OPENMP THREADS CUDA HIP SYCL HPX)
      if(Kokkos_ENABLE_${_da_backend})
        list(APPEND _da_kokkos_backends ${_da_backend})
      endif()
    endforeach()
  endif()
  message(STATUS "distarray: Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}, backends: ${_da_kokkos_backends}")
  set(DISTARRAY_KOKKOS_BACKENDS "${_da_kokkos_backends}")  # for the tests that need threads
  unset(_da_kokkos_backends)
  unset(_da_kokkos_inc)
  unset(_da_kokkos_fixed)
  unset(_da_kokkos_broken)
endmacro()
