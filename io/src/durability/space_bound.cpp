#include <distarray/core/checked.hpp>
#include <distarray/io/detail/durability/space_bound.hpp>

#include <algorithm>

namespace distarray::detail {

namespace {

constexpr std::uint64_t aligned(std::uint64_t bytes) { return (bytes + 7) / 8 * 8; }

// Sizes from the HDF5 File Format Specification 3.0, each rounded up.
constexpr std::uint64_t message_header = 8;      // IV.A.1.a: type, size, flags, reserved
constexpr std::uint64_t header_prefix = 32;      // version 1 (16) or 2 (up to 30)
constexpr std::uint64_t datatype_message = 128;  // IV.A.2.d: a compound {r, i} with its names is the largest
constexpr std::uint64_t fixed_messages = 512;    // dataspace, datatype, fill value, layout, filters, time
constexpr std::uint64_t btree_node = 24 + 65 * 16 + 64 * 8;  // III.A.1 for a group: 2K+1 keys, 2K children
constexpr std::uint64_t btree_levels = 4;           // 32^4 children per node level: more than any file holds
constexpr std::uint64_t symbol_node = 8 + 16 * 40;  // III.B: 2K entries of 40 bytes
constexpr std::uint64_t group_own = 2 * btree_node + 256;  // a new group's B-tree node and local heap
constexpr std::uint64_t dense_storage = 16 * 1024;  // III.G, III.A.2: heap header, root block, index nodes
constexpr std::uint64_t compact_attributes = 8;     // HDF5's default maximum before dense storage
constexpr std::uint64_t aggregators = 2 * 2048;     // metadata and small-data blocks partly used

/// Σ aligned(name + 1) over the links of `group` (its local heap's content), 0 when it does not exist yet.
std::uint64_t link_names_bytes(const Hdf5File& file, const std::string& group) {
  if (group != "/" && !file.is_group(group)) return 0;
  std::uint64_t bytes = 0;
  for (const std::string& link : file.children(group)) bytes += aligned(link.size() + 1);
  return bytes;
}

/// A new link named `name` in a group whose names take `names` bytes: the
/// local heap moved to twice its size, a symbol-table node and a B-tree node per level split.
std::uint64_t link_bytes(std::uint64_t names, const std::string& name) {
  return 2 * (names + aligned(name.size() + 1) + 32) + symbol_node + btree_levels * btree_node;
}

/// An object header holding `attributes` bytes of attribute messages, `count`
/// of them, dense past the compact maximum.
std::uint64_t header_bytes(std::uint64_t attributes, std::uint64_t count) {
  const std::uint64_t header = 2 * (header_prefix + fixed_messages + attributes);
  return count > compact_attributes ? header + 2 * attributes + dense_storage : header;
}

/// One attribute message (IV.A.2.m): its header, version and sizes, name, datatype, scalar dataspace, value.
std::uint64_t attribute_message_bytes(const std::string& name, std::uint64_t value) {
  return message_header + 8 + aligned(name.size() + 1) + datatype_message + 16 + aligned(value);
}

std::uint64_t messages_bytes(const AttributeSizes& attributes) {
  std::uint64_t bytes = 0;
  for (const auto& [name, value] : attributes) bytes += attribute_message_bytes(name, value);
  return bytes;
}

}  // namespace

AttributeSizes sizes_of(const Attributes& attributes) {
  AttributeSizes sizes;
  for (const auto& [name, value] : attributes)
    sizes.emplace_back(name, value_bytes(std::get_if<std::string>(&value)));
  return sizes;
}

std::uint64_t value_bytes(const std::string* text) {
  return text ? std::max<std::uint64_t>(text->size(), 1) : 8;
}

std::uint64_t chunk_count(const std::vector<index_t>& shape, const std::vector<std::uint64_t>& chunk) {
  if (chunk.empty()) return 0;
  std::uint64_t count = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) count *= (std::uint64_t(shape[d]) + chunk[d] - 1) / chunk[d];
  return count;
}

std::uint64_t data_bound(const std::vector<index_t>& shape, const std::vector<std::uint64_t>& chunk,
                         std::size_t element_bytes) {
  index_t elements = 1;
  for (std::size_t d = 0; d < shape.size(); ++d)
    elements = checked_multiply(elements, chunk.empty() ? shape[d] : index_t(chunk[d]), "element count");
  const std::uint64_t whole = std::uint64_t(checked_bytes(elements, element_bytes));
  if (chunk.empty()) return whole;
  const std::uint64_t chunks = chunk_count(shape, chunk);
  return chunks * (whole + whole / 1000 + 12);  // whole: one chunk's bytes here
}

std::uint64_t step_metadata_bound(const Hdf5File& file, const std::string& group,
                                  const AttributeSizes& attributes) {
  const std::uint64_t bytes = messages_bytes(attributes) + attribute_message_bytes("distarray_step", 8) +
                              attribute_message_bytes("distarray_complete", 8);
  return header_bytes(bytes, attributes.size() + 2) + group_own +
         link_bytes(link_names_bytes(file, "/"), group) + aggregators;
}

std::uint64_t array_metadata_bound(const Hdf5File& file, const std::string& name,
                                   const AttributeSizes& attributes, int rank, std::uint64_t chunks) {
  std::uint64_t bytes = header_bytes(messages_bytes(attributes), attributes.size()) + aggregators;
  // The dataset's link and every group of its path not there yet (one B-tree node and heap each).
  const std::string path = dataset_path(name);
  std::string parent = "/";
  for (std::size_t from = 0; from < path.size();) {
    const std::size_t slash = std::min(path.find('/', from), path.size());
    const std::string link = path.substr(from, slash - from);
    bytes += link_bytes(link_names_bytes(file, parent), link);
    parent += (parent == "/" ? "" : "/") + link;
    if (slash < path.size() && !file.is_group(parent)) bytes += header_bytes(0, 0) + group_own;
    from = slash + 1;
  }
  if (chunks > 0) {
    const std::uint64_t chunk_node = 24 + 65 * (8 + 8 * std::uint64_t(rank + 1)) + 64 * 8;
    bytes += (2 * ((chunks + 63) / 64) + btree_levels) * chunk_node;
  }
  return bytes;
}

}  // namespace distarray::detail
