#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/durability/space_bound.hpp is internal: include <distarray/io.hpp>"
#endif
// Upper bounds on the disk space HDF5 allocates for an array's data and for
// the metadata of a step group or an array, reserved on disk before HDF5
// allocates it (temporary_file.hpp, reserve_space).
//
// Data: contiguous, its bytes.  Chunked (compressed): parallel HDF5 allocates
// every chunk whole when it creates the dataset (early allocation, forced by
// the MPI-IO driver), edge chunks included, then gives a chunk new room only
// when its filtered size differs; deflate stores a chunk that does not
// shrink unfiltered (its filter is optional) and grows one by at most 0.1% +
// 12 bytes (zlib's compressBound), so the whole chunks plus that growth
// bound it.
//
// Metadata: measured from the names, attributes and chunk
// counts by the structures of the HDF5 File Format Specification (3.0) that
// distarray's files use (default file-creation properties):
// - an object header (IV.A.1): a prefix and messages, each an 8-byte header
//   and an 8-byte aligned body; a message that does not fit goes to a new
//   continuation chunk while the old chunk stays allocated, so twice the
//   messages bound every chunk;
// - an attribute message (IV.A.2.m): name, datatype, dataspace and value;
//   past 8 attributes of a group that orders them (a step's), dense storage:
//   a fractal heap whose blocks double (III.G), so at most twice what it
//   holds, and two version-2 B-trees (III.A.2);
// - a link in a group (III.B, III.C, III.A.1): its name in the group's local
//   heap, which HDF5 moves to a block of twice the size when full; an entry
//   of a symbol-table node, split when full; a B-tree node per level;
// - a chunk index (III.A.1, node type 1): version-1 B-tree nodes of 64
//   entries that splits leave at least half full.
// Each bound adds HDF5's two allocation aggregators' partly used blocks.

#include <distarray/io/attribute.hpp>
#include <distarray/io/detail/hdf5/hdf5_file.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace distarray::detail {

/// Attribute names with the bytes of their values.
using AttributeSizes = std::vector<std::pair<std::string, std::uint64_t>>;
AttributeSizes sizes_of(const Attributes& attributes);
/// The bytes of an attribute's value: a string's (`text`, at least 1), else a number's 8.
std::uint64_t value_bytes(const std::string* text);

/// The data of an array of `shape` stored contiguous (`chunk` empty) or in
/// chunks of `chunk` elements, compressed.
std::uint64_t data_bound(const std::vector<index_t>& shape, const std::vector<std::uint64_t>& chunk,
                         std::size_t element_bytes);
/// How many chunks of `chunk` cover `shape` (0 when `chunk` is empty).
std::uint64_t chunk_count(const std::vector<index_t>& shape, const std::vector<std::uint64_t>& chunk);

/// The metadata of step group `group` of `file`: its header, the attributes
/// `attributes` and the ones distarray adds (distarray_step,
/// distarray_complete), and its link in the root group.  It also bounds
/// what the completion marker adds, written last.
std::uint64_t step_metadata_bound(const Hdf5File& file, const std::string& group,
                                  const AttributeSizes& attributes);

/// The metadata of dataset `name` of `file` of rank `rank`: its header with
/// `attributes`, its link and any group of its path still to be created, and
/// the index of `chunks` chunks (0: contiguous).
std::uint64_t array_metadata_bound(const Hdf5File& file, const std::string& name,
                                   const AttributeSizes& attributes, int rank, std::uint64_t chunks);

}  // namespace distarray::detail
