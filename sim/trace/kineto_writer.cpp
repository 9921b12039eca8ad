#include "sim/trace/kineto_writer.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace sim::trace {
namespace {

// Process ids of the modelled rank: apart from a real trace's (an OS pid, and the device index
// for its GPU), and from other ranks', so that traces opened together keep their own tracks.
constexpr int64_t CPU_PID_BASE = 2000000000;
constexpr int64_t GPU_PID_BASE = 1000000000;

void jsonString(std::ostream& out, std::string_view text) {
  out << '"';
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out << '\\' << c;
    } else if (u < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
      out << escaped;
    } else {
      out << c;
    }
  }
  out << '"';
}

// Nanoseconds as Kineto's microseconds with three decimals, exactly.
void micros(std::ostream& out, int64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%lld.%03lld", static_cast<long long>(ns / 1000),
                static_cast<long long>(ns % 1000));
  out << text;
}

const char* groupDescription(const std::string& group) {
  if (group == "tp") return "tensor parallel";
  if (group == "cp") return "context parallel";
  if (group == "pp") return "pipeline parallel";
  if (group == "dp") return "data parallel";
  if (group == "ep") return "expert parallel";
  return "";
}

void metadata(std::ostream& out, const char* name, int64_t pid, int64_t tid, const char* key,
              const std::string& value, bool number) {
  out << "{\"name\": \"" << name << "\", \"ph\": \"M\", \"ts\": 0, \"pid\": " << pid
      << ", \"tid\": " << tid << ", \"args\": {\"" << key << "\": ";
  if (number) {
    out << value;
  } else {
    jsonString(out, value);
  }
  out << "}},\n";
}

void collectiveArgs(std::ostream& out, const ModelCollective& c) {
  out << ", \"Collective name\": ";
  jsonString(out, c.kind);
  out << ", \"In msg nelems\": " << c.inElements << ", \"Out msg nelems\": " << c.outElements
      << ", \"Group size\": " << c.groupRanks.size() << ", \"dtype\": ";
  jsonString(out, c.dtype);
  out << R"(, "In split size": "[]", "Out split size": "[]", "Process Group Name": )";
  jsonString(out, c.groupName);
  out << ", \"Process Group Description\": ";
  jsonString(out, groupDescription(c.groupName));
  out << ", \"Process Group Ranks\": \"[";
  for (size_t i = 0; i < c.groupRanks.size(); ++i) out << (i ? ", " : "") << c.groupRanks[i];
  out << "]\"";
}

}  // namespace

void writeKinetoTrace(std::ostream& out, const ModelRank& rank, const KinetoWriteOptions& o) {
  const int64_t cpuPid = CPU_PID_BASE + rank.rank, gpuPid = GPU_PID_BASE + rank.rank;
  out << "{\n\"schemaVersion\": 1,\n\"deviceProperties\": [{\"id\": " << rank.device
      << ", \"name\": ";
  jsonString(out, rank.deviceName);
  out << ", \"totalGlobalMem\": " << static_cast<int64_t>(rank.deviceMemory_bytes) << "}],\n"
      << "\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " << rank.rank
      << ", \"world_size\": " << rank.worldSize << "},\n\"dcwalk\": {\"modelled\": true, "
      << "\"source\": ";
  jsonString(out, o.source);
  out << ", \"role\": ";
  jsonString(out, rank.role);
  out << "},\n\"displayTimeUnit\": \"ms\",\n\"traceEvents\": [\n";
  const std::string label = "modelled rank " + std::to_string(rank.rank);
  metadata(out, "process_name", cpuPid, 0, "name", label + " (dcwalk)", false);
  metadata(out, "process_labels", cpuPid, 0, "labels", "CPU", false);
  metadata(out, "process_sort_index", cpuPid, 0, "sort_index", std::to_string(2 * rank.rank), true);
  metadata(out, "process_name", gpuPid, 0, "name", label + " (dcwalk)", false);
  metadata(out, "process_labels", gpuPid, 0, "labels", "GPU " + std::to_string(rank.device), false);
  metadata(out, "process_sort_index", gpuPid, 0, "sort_index", std::to_string(2 * rank.rank + 1),
           true);
  metadata(out, "thread_name", cpuPid, cpuPid, "name", "thread " + std::to_string(cpuPid), false);
  for (int s = 0; s < MODEL_STREAM_COUNT; ++s) {
    const auto stream = static_cast<ModelStream>(s);
    metadata(out, "thread_name", gpuPid, streamId(stream), "name",
             "stream " + std::to_string(streamId(stream)) + " " + streamLabel(stream), false);
    metadata(out, "thread_sort_index", gpuPid, streamId(stream), "sort_index",
             std::to_string(streamId(stream)), true);
  }
  // The CPU thread: each step's annotation, then the launches inside it, in time order
  // (kernels are sorted by start and every kernel lies in its step).
  bool first = true;
  auto open = [&](const char* ph, const char* cat) {
    out << (first ? "" : ",\n") << "{\"ph\": \"" << ph << "\", \"cat\": \"" << cat << "\"";
    first = false;
  };
  // Kernel i is launched with correlation and External id i + 1; steps take the ids after.
  const int64_t stepIds = int64_t(rank.kernels.size()) + 1;
  size_t next = 0;
  for (size_t si = 0; si < rank.steps.size(); ++si) {
    const ModelStep& s = rank.steps[si];
    open("X", "user_annotation");
    out << ", \"name\": \"ProfilerStep#" << s.number << "\", \"pid\": " << cpuPid
        << ", \"tid\": " << cpuPid << ", \"ts\": ";
    micros(out, s.start_ns + o.offset_ns);
    out << ", \"dur\": ";
    micros(out, s.end_ns - s.start_ns);
    out << ", \"args\": {\"External id\": " << stepIds + int64_t(si) << "}}";
    for (; next < rank.kernels.size() && rank.kernels[next].start_ns < s.end_ns; ++next) {
      open("X", "cuda_runtime");
      out << ", \"name\": \"cudaLaunchKernel\", \"pid\": " << cpuPid << ", \"tid\": " << cpuPid
          << ", \"ts\": ";
      micros(out, rank.kernels[next].start_ns + o.offset_ns);
      out << ", \"dur\": 0, \"args\": {\"External id\": " << next + 1
          << ", \"correlation\": " << next + 1 << "}}";
    }
  }
  for (size_t i = 0; i < rank.kernels.size(); ++i) {
    const ModelKernel& k = rank.kernels[i];
    const int64_t stream = streamId(k.stream);
    open("X", "kernel");
    out << ", \"name\": ";
    jsonString(out, rank.names[k.name]);
    out << ", \"pid\": " << gpuPid << ", \"tid\": " << stream << ", \"ts\": ";
    micros(out, k.start_ns + o.offset_ns);
    out << ", \"dur\": ";
    micros(out, k.dur_ns);
    out << ", \"args\": {\"External id\": " << i + 1 << ", \"device\": " << rank.device
        << ", \"context\": 1, \"stream\": " << stream << ", \"correlation\": " << i + 1;
    if (k.collective >= 0) collectiveArgs(out, rank.collectives[size_t(k.collective)]);
    out << "}}";
  }
  out << "\n],\n\"traceName\": ";
  jsonString(out, label);
  out << "\n}\n";
}

std::string gzipText(std::string_view text) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib: deflateInit2 failed");
  std::string out;
  std::vector<unsigned char> buffer(1 << 16);
  size_t offset = 0;
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    if (z.avail_in == 0 && offset < text.size()) {
      const size_t chunk = std::min<size_t>(text.size() - offset, size_t{1} << 30);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data() + offset));
      z.avail_in = static_cast<uInt>(chunk);
      offset += chunk;
    }
    z.next_out = buffer.data();
    z.avail_out = static_cast<uInt>(buffer.size());
    status = deflate(&z, offset == text.size() ? Z_FINISH : Z_NO_FLUSH);
    out.append(reinterpret_cast<char*>(buffer.data()), buffer.size() - z.avail_out);
  }
  deflateEnd(&z);
  return out;
}

}  // namespace sim::trace
