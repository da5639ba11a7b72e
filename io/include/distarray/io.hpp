#pragma once
// The checkpoint layer of distarray: HDF5 save and restore of one array
// (checkpoint.hpp) and series of steps with several arrays (series.hpp).
#include <distarray/io/checkpoint.hpp>
#include <distarray/io/series.hpp>
