# distarray_add_python(): the Python module (python/) where it can be built.
# DISTARRAY_PYTHON: AUTO (default: built where Python 3 with its development
# files, numpy and pybind11 are found and Kokkos is a shared library, as
# scripts/kokkos.sh builds it), ON (an error where they are not) or OFF.
# Debian's python3-numpy, python3-pybind11 and python3-mpi4py serve
# /usr/bin/python3; a python3 earlier on PATH (pyenv's, say) may lack them,
# so that one is preferred unless -DPython3_EXECUTABLE= names another.
set(DISTARRAY_PYTHON AUTO CACHE STRING "Build the Python module: AUTO, ON or OFF")
function(distarray_add_python)
  if(DISTARRAY_PYTHON STREQUAL "OFF")
    return()
  endif()
  if(NOT Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "the Python of the Python module")
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module NumPy)
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 CONFIG QUIET)
  # A static Kokkos (upstream's default) is not built position-independent:
  # it cannot go into the module, a shared object.
  set(_da_static_kokkos OFF)
  if(TARGET Kokkos::kokkoscore)
    get_target_property(_da_kokkos_type Kokkos::kokkoscore TYPE)
    if(_da_kokkos_type STREQUAL "STATIC_LIBRARY")
      set(_da_static_kokkos ON)
    endif()
  endif()
  if(_da_static_kokkos AND DISTARRAY_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "DISTARRAY_PYTHON=ON needs a shared Kokkos (-DBUILD_SHARED_LIBS=ON when building Kokkos)")
  elseif(_da_static_kokkos)
    message(STATUS "distarray: no Python module (Kokkos is a static library; build it shared for one)")
  elseif(Python3_FOUND AND Python3_NumPy_FOUND AND pybind11_FOUND)
    add_subdirectory(python)
  elseif(DISTARRAY_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "DISTARRAY_PYTHON=ON needs Python 3 with its development files, numpy and pybind11 "
                        "(Debian: python3-dev python3-numpy python3-pybind11)")
  else()
    message(STATUS "distarray: no Python module (it needs Python 3 development files, numpy and pybind11)")
  endif()
endfunction()
