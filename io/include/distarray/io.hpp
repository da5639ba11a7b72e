#pragma once
// The checkpoint layer of distarray: HDF5 save and restore.
#include <distarray/io/checkpoint.hpp>
