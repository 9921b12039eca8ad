// The streaming Kineto reader (kineto.h): one pass over the JSON, each event reduced to a compact
// record (or dropped) as soon as its object closes.
#include <string_view>
#include <unordered_map>

#include "sim/trace/byte_source.h"
#include "sim/trace/decimal.h"
#include "sim/trace/json_pull.h"
#include "sim/trace/kineto.h"

namespace sim::trace {
namespace {

// Ids (pid, tid, stream, correlation ...) stay within ±2^62; interned string ids go below.
constexpr int64_t ID_LIMIT = int64_t(1) << 62;

enum EventKey { E_PH, E_CAT, E_NAME, E_TS, E_DUR, E_PID, E_TID, E_ARGS };
constexpr const char* EVENT_KEYS[] = {"ph", "cat", "name", "ts", "dur", "pid", "tid", "args"};

enum ArgKey {
  A_STREAM,
  A_DEVICE,
  A_CORRELATION,
  A_EXTERNAL_ID,
  A_BYTES,
  A_IN_NELEMS,
  A_OUT_NELEMS,
  A_GROUP_SIZE,  // the integer ones end here
  A_COLLECTIVE,
  A_DTYPE,
  A_ALGORITHM,
  A_PROTOCOL,
  A_INPUT_DIMS,
  A_INPUT_TYPE,
  ARG_COUNT
};
constexpr int INTEGER_ARGS = A_GROUP_SIZE + 1;
constexpr const char* ARG_KEYS[] = {
    "stream",        "device",         "correlation", "External id",     "bytes",
    "In msg nelems", "Out msg nelems", "Group size",  "Collective name", "dtype",
    "algorithm",     "protocol",       "Input Dims",  "Input type"};

int eventKey(const std::string& key) {
  for (int i = 0; i < 8; ++i) {
    if (key == EVENT_KEYS[i]) return i;
  }
  return -1;
}

int argKey(const std::string& key) {
  static const std::unordered_map<std::string_view, int> keys = [] {
    std::unordered_map<std::string_view, int> m;
    for (int i = 0; i < ARG_COUNT; ++i) m[ARG_KEYS[i]] = i;
    m["Algorithm"] = A_ALGORITHM;
    m["Protocol"] = A_PROTOCOL;
    return m;
  }();
  auto it = keys.find(key);
  return it == keys.end() ? -1 : it->second;
}

uint32_t bit(int i) {
  return 1u << i;
}

// The text with control characters and invalid UTF-8 replaced by '?', so any name can be
// printed or written into JSON.
std::string sanitized(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out.push_back(c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c));
      ++i;
      continue;
    }
    const size_t n = (c >= 0xc2 && c <= 0xdf)   ? 2
                     : (c >= 0xe0 && c <= 0xef) ? 3
                     : (c >= 0xf0 && c <= 0xf4) ? 4
                                                : 0;
    bool ok = n > 0 && i + n <= s.size();
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (ok) {
      const unsigned char second = static_cast<unsigned char>(s[i + 1]);
      if ((c == 0xe0 && second < 0xa0) || (c == 0xed && second >= 0xa0) ||
          (c == 0xf0 && second < 0x90) || (c == 0xf4 && second >= 0x90))
        ok = false;  // overlong, surrogate or beyond U+10FFFF
    }
    if (ok) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out.push_back('?');
      ++i;
    }
  }
  return out;
}

struct Args {
  uint32_t seen = 0, bad = 0;  // by ArgKey
  int64_t ints[INTEGER_ARGS] = {};
  std::string collective, dtype, algorithm, protocol, inputType;
  int64_t inputElements = -1;
  bool has(int k) const { return seen & bit(k) && !(bad & bit(k)); }
  int64_t get(int k, int64_t otherwise) const { return has(k) ? ints[k] : otherwise; }
};

struct Event {
  uint32_t seen = 0;
  std::string ph, cat, name, ts, dur;
  int64_t pid = 0, tid = 0;
  Args args;
};

class Reader {
 public:
  Reader(ByteSource& source, const std::string& file, const ReadLimits& limits)
      : m_json(source, limits), m_limits(limits), m_source(source) {
    m_trace.file = file;
  }

  RawTrace read() {
    const JsonPull::Kind top = m_json.peekKind();
    bool sawEvents = false;
    if (top == JsonPull::Kind::Array) {
      readEvents();  // the bare-array form of the Chrome trace format
      sawEvents = true;
    } else if (top == JsonPull::Kind::Object) {
      m_json.beginObject();
      uint32_t seen = 0;
      while (m_json.nextMember(m_key)) {
        const int k = m_key == "traceEvents"        ? 0
                      : m_key == "distributedInfo"  ? 1
                      : m_key == "deviceProperties" ? 2
                                                    : -1;
        if (k < 0) {
          m_json.skipValue();
          continue;
        }
        if (seen & bit(k)) m_json.fail("'" + m_key + "' appears twice");
        seen |= bit(k);
        if (k == 0) {
          if (m_json.peekKind() != JsonPull::Kind::Array)
            m_json.fail("'traceEvents' must be an array");
          readEvents();
          sawEvents = true;
        } else if (k == 1) {
          readDistributedInfo();
        } else {
          readDeviceProperties();
        }
      }
    } else {
      m_json.fail("the top level must be an object with 'traceEvents' (a Kineto trace)");
    }
    m_json.expectEnd();
    if (!sawEvents) m_json.fail("no 'traceEvents' array: not a Kineto trace");
    m_trace.compressed = m_source.compressed();
    return std::move(m_trace);
  }

  int64_t eventIndex() const { return m_eventIndex; }

 private:
  void charge(uint64_t bytes) {
    m_recordBytes += bytes;
    if (m_limits.recordBytesHeld + m_recordBytes > m_limits.maxRecordBytes) {
      m_json.fail("the trace needs more than " +
                  std::to_string(m_limits.maxRecordBytes -
                                 std::min(m_limits.maxRecordBytes, m_limits.recordBytesHeld)) +
                  " bytes of records (the reader's memory budget of " +
                  std::to_string(m_limits.maxRecordBytes) + " bytes for all of a command's " +
                  "trace files, " + std::to_string(m_limits.recordBytesHeld) +
                  " of them held by the files before it)");
    }
  }

  uint32_t intern(std::string_view raw) {
    std::string name = sanitized(raw);
    auto it = m_names.find(name);
    if (it != m_names.end()) return it->second;
    if (m_trace.names.size() >= m_limits.maxNames) {
      m_json.fail("more than " + std::to_string(m_limits.maxNames) + " distinct names");
    }
    m_nameBytes += name.size();
    if (m_nameBytes > m_limits.maxNameBytes) {
      m_json.fail("distinct names take more than " + std::to_string(m_limits.maxNameBytes) +
                  " bytes");
    }
    const uint32_t id = static_cast<uint32_t>(m_trace.names.size());
    m_trace.names.push_back(name);
    m_names.emplace(std::move(name), id);
    return id;
  }

  int64_t readInteger(const std::string& what, int64_t low, int64_t high) {
    if (m_json.peekKind() != JsonPull::Kind::Number) m_json.fail(what + " must be an integer");
    m_json.readNumber(m_number);
    auto v = exactInteger(m_number, ID_LIMIT);
    if (!v || *v < low || *v > high) {
      m_json.fail(what + " must be an integer in [" + std::to_string(low) + ", " +
                  std::to_string(high) + "], got " + m_number);
    }
    return *v;
  }

  void readDistributedInfo() {
    if (m_json.peekKind() != JsonPull::Kind::Object)
      m_json.fail("'distributedInfo' must be an object");
    m_json.beginObject();
    uint32_t seen = 0;
    while (m_json.nextMember(m_key)) {
      const int k = m_key == "rank" ? 0 : m_key == "world_size" ? 1 : -1;
      if (k < 0) {
        m_json.skipValue();
        continue;
      }
      if (seen & bit(k)) m_json.fail("'distributedInfo." + m_key + "' appears twice");
      seen |= bit(k);
      if (k == 0) m_trace.rank = readInteger("'distributedInfo.rank'", 0, MAX_WORLD_SIZE - 1);
      if (k == 1)
        m_trace.worldSize = readInteger("'distributedInfo.world_size'", 1, MAX_WORLD_SIZE);
    }
    if (m_trace.rank >= 0 && m_trace.worldSize > 0 && m_trace.rank >= m_trace.worldSize) {
      m_json.fail("'distributedInfo.rank' " + std::to_string(m_trace.rank) +
                  " is not below its world_size " + std::to_string(m_trace.worldSize));
    }
  }

  void readDeviceProperties() {
    if (m_json.peekKind() != JsonPull::Kind::Array)
      m_json.fail("'deviceProperties' must be an array");
    m_json.beginArray();
    while (m_json.nextElement()) {
      if (m_json.peekKind() != JsonPull::Kind::Object) {
        m_json.fail("each 'deviceProperties' entry must be an object");
      }
      DeviceProperty device;
      device.id = static_cast<int64_t>(m_trace.devices.size());
      uint32_t seen = 0;
      m_json.beginObject();
      while (m_json.nextMember(m_key)) {
        const int k = m_key == "id" ? 0 : m_key == "name" ? 1 : -1;
        if (k < 0) {
          m_json.skipValue();
          continue;
        }
        if (seen & bit(k)) m_json.fail("'deviceProperties[]." + m_key + "' appears twice");
        seen |= bit(k);
        if (k == 0) device.id = readInteger("'deviceProperties[].id'", 0, ID_LIMIT);
        if (k == 1) {
          if (m_json.peekKind() != JsonPull::Kind::String) {
            m_json.fail("'deviceProperties[].name' must be a string");
          }
          m_json.readString(m_text);
          device.name = sanitized(m_text.substr(0, 256));
        }
      }
      charge(sizeof(DeviceProperty) + device.name.size());
      m_trace.devices.push_back(std::move(device));
    }
  }

  void readEvents() {
    m_json.beginArray();
    while (m_json.nextElement()) {
      m_eventIndex = static_cast<int64_t>(m_trace.events);
      if (++m_trace.events > m_limits.maxEvents) {
        m_json.fail("more than " + std::to_string(m_limits.maxEvents) + " events");
      }
      if (m_json.peekKind() != JsonPull::Kind::Object) m_json.fail("the event is not an object");
      readEvent();
      keepEvent();
    }
    m_eventIndex = -1;
  }

  void readString(const char* field, std::string& out) {
    if (m_json.peekKind() != JsonPull::Kind::String) {
      m_json.fail(std::string("'") + field + "' must be a string");
    }
    m_json.readString(out);
  }

  int64_t readId(const char* field) {
    const JsonPull::Kind kind = m_json.peekKind();
    if (kind == JsonPull::Kind::String) {
      m_json.readString(m_text);
      return -ID_LIMIT - 1 - static_cast<int64_t>(intern(m_text));
    }
    if (kind != JsonPull::Kind::Number) {
      m_json.fail(std::string("'") + field + "' must be an integer or a string");
    }
    return readInteger(std::string("'") + field + "'", -ID_LIMIT, ID_LIMIT);
  }

  void readEvent() {
    Event& e = m_event;
    e.seen = 0;
    e.ph.clear();
    e.cat.clear();
    e.name.clear();
    e.pid = e.tid = 0;
    e.args.seen = e.args.bad = 0;
    e.args.inputElements = -1;
    m_json.beginObject();
    while (m_json.nextMember(m_key)) {
      const int k = eventKey(m_key);
      if (k < 0) {
        m_json.skipValue();
        continue;
      }
      if (e.seen & bit(k)) m_json.fail("'" + m_key + "' appears twice");
      e.seen |= bit(k);
      switch (k) {
        case E_PH:
          readString("ph", e.ph);
          break;
        case E_CAT:
          readString("cat", e.cat);
          break;
        case E_NAME:
          readString("name", e.name);
          break;
        case E_TS:
        case E_DUR:
          if (m_json.peekKind() != JsonPull::Kind::Number) {
            m_json.fail("'" + m_key + "' must be a number (microseconds)");
          }
          m_json.readNumber(k == E_TS ? e.ts : e.dur);
          break;
        case E_PID:
          e.pid = readId("pid");
          break;
        case E_TID:
          e.tid = readId("tid");
          break;
        case E_ARGS:
          readArgs(e.args);
          break;
      }
    }
  }

  void readArgs(Args& a) {
    if (m_json.peekKind() != JsonPull::Kind::Object) m_json.fail("'args' must be an object");
    m_json.beginObject();
    while (m_json.nextMember(m_key)) {
      const int k = argKey(m_key);
      if (k < 0) {
        m_json.skipValue();
        continue;
      }
      if (a.seen & bit(k)) m_json.fail("'args." + m_key + "' appears twice");
      a.seen |= bit(k);
      const JsonPull::Kind kind = m_json.peekKind();
      if (k < INTEGER_ARGS) {
        // Checked only where used: ROCm runtime calls write "stream": "0x0", a string.
        std::optional<int64_t> v;
        if (kind == JsonPull::Kind::Number) {
          m_json.readNumber(m_number);
          v = exactInteger(m_number, ID_LIMIT);
        } else {
          m_json.skipValue();
        }
        if (v)
          a.ints[k] = *v;
        else
          a.bad |= bit(k);
      } else if (k == A_INPUT_DIMS) {
        if (kind == JsonPull::Kind::Array)
          readInputDims(a);
        else
          m_json.skipValue();
      } else if (k == A_INPUT_TYPE) {
        a.inputType.clear();
        if (kind != JsonPull::Kind::Array) {
          m_json.skipValue();
          continue;
        }
        m_json.beginArray();
        for (bool first = true; m_json.nextElement(); first = false) {
          if (first && m_json.peekKind() == JsonPull::Kind::String)
            m_json.readString(a.inputType);
          else
            m_json.skipValue();
        }
      } else {
        std::string& out = k == A_COLLECTIVE  ? a.collective
                           : k == A_DTYPE     ? a.dtype
                           : k == A_ALGORITHM ? a.algorithm
                                              : a.protocol;
        if (kind == JsonPull::Kind::String) {
          m_json.readString(out);
        } else {
          m_json.skipValue();
          a.bad |= bit(k);
        }
      }
    }
  }

  // "Input Dims": [[d0, d1, ...], ...]: the element count of the first input, -1 when unknown.
  void readInputDims(Args& a) {
    m_json.beginArray();
    for (bool first = true; m_json.nextElement(); first = false) {
      if (!first || m_json.peekKind() != JsonPull::Kind::Array) {
        m_json.skipValue();
        continue;
      }
      m_json.beginArray();
      int64_t product = 1;
      bool known = true, any = false;
      while (m_json.nextElement()) {
        if (m_json.peekKind() != JsonPull::Kind::Number) {
          m_json.skipValue();
          known = false;
          continue;
        }
        m_json.readNumber(m_number);
        auto d = exactInteger(m_number, ID_LIMIT);
        if (!d || *d < 0 || (*d > 0 && product > ID_LIMIT / *d)) {
          known = false;
        } else {
          product *= *d;
        }
        any = true;
      }
      a.inputElements = known && any ? product : -1;
    }
  }

  [[noreturn]] void badArg(int k) {
    m_json.fail(std::string("'args.") + ARG_KEYS[k] + "' has the wrong type (or is out of range)");
  }

  int64_t checkedArg(int k, int64_t otherwise) {
    if (m_event.args.bad & bit(k)) badArg(k);
    return m_event.args.get(k, otherwise);
  }

  // NCCL metadata of the current event's args, stored when there is any.
  uint32_t keepComm() {
    const Args& a = m_event.args;
    for (int k : {A_IN_NELEMS, A_OUT_NELEMS, A_GROUP_SIZE, A_COLLECTIVE, A_DTYPE, A_ALGORITHM,
                  A_PROTOCOL}) {
      if (a.bad & bit(k)) badArg(k);
    }
    const bool any = a.has(A_COLLECTIVE) || a.has(A_IN_NELEMS) || a.has(A_DTYPE) ||
                     a.has(A_ALGORITHM) || a.has(A_PROTOCOL) || a.inputElements >= 0 ||
                     (a.seen & bit(A_INPUT_TYPE));
    if (!any) return NO_NAME;
    CommArgs c;
    auto name = [&](int k, const std::string& s) { return a.has(k) ? intern(s) : NO_NAME; };
    c.collective = name(A_COLLECTIVE, a.collective);
    c.dtype = name(A_DTYPE, a.dtype);
    c.algorithm = name(A_ALGORITHM, a.algorithm);
    c.protocol = name(A_PROTOCOL, a.protocol);
    c.inputType = a.inputType.empty() ? NO_NAME : intern(a.inputType);
    c.inNelems = a.get(A_IN_NELEMS, -1);
    c.outNelems = a.get(A_OUT_NELEMS, -1);
    c.groupSize = a.get(A_GROUP_SIZE, -1);
    c.inputElements = a.inputElements;
    charge(sizeof(CommArgs));
    m_trace.comms.push_back(c);
    return static_cast<uint32_t>(m_trace.comms.size() - 1);
  }

  void keepEvent() {
    const Event& e = m_event;
    int64_t ts = 0, dur = 0;
    const bool hasTs = e.seen & bit(E_TS), hasDur = e.seen & bit(E_DUR);
    if (hasTs) {
      auto v = scaledInteger(e.ts, 3, MAX_TS_NS);
      if (!v) m_json.fail("'ts' is out of range (|ts| <= 4e15 us): " + e.ts);
      ts = *v;
    }
    if (hasDur) {
      auto v = scaledInteger(e.dur, 3, MAX_DUR_NS);
      if (!v) m_json.fail("'dur' is out of range (dur <= 1e15 us): " + e.dur);
      if (*v < 0) m_json.fail("'dur' is negative: " + e.dur);
      dur = *v;
    }
    const bool complete = e.ph == "X";  // ph is "" when absent
    const std::string& cat = e.cat;
    if (e.ph == "s" || e.ph == "f" || e.ph == "t") {
      ++m_trace.flowEvents;
    } else if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
      if (!e.ph.empty() && e.ph != "X") return;
      if (!hasTs || !hasDur) {
        ++m_trace.gpuWithoutTime;
        return;
      }
      RawGpuEvent g;
      g.start_ns = ts;
      g.dur_ns = dur;
      g.kind = cat == "kernel"       ? GpuEventKind::Kernel
               : cat == "gpu_memcpy" ? GpuEventKind::Memcpy
                                     : GpuEventKind::Memset;
      g.device = checkedArg(A_DEVICE, e.pid);
      g.stream = checkedArg(A_STREAM, e.tid);
      g.correlation = checkedArg(A_CORRELATION, -1);
      g.externalId = checkedArg(A_EXTERNAL_ID, -1);
      g.bytes = checkedArg(A_BYTES, -1);
      if (g.bytes < -1) badArg(A_BYTES);
      g.name = intern(e.name);
      if (g.kind == GpuEventKind::Kernel) g.comm = keepComm();
      charge(sizeof(RawGpuEvent));
      m_trace.gpu.push_back(g);
    } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
      if (!complete || !hasTs || !e.args.has(A_CORRELATION)) return;
      charge(sizeof(RawLaunch));
      m_trace.launches.push_back({e.args.ints[A_CORRELATION], {e.pid, e.tid}, ts});
    } else if (cat == "cpu_op" || cat == "user_annotation") {
      if (!complete || !hasTs || !hasDur) return;
      keepCpuRange(ts, dur);
    }
  }

  void keepCpuRange(int64_t ts, int64_t dur) {
    const Event& e = m_event;
    RawCpuRange r;
    const std::string_view name = e.name;
    constexpr std::string_view NCCL = "nccl:", STEP = "ProfilerStep#";
    if (name.substr(0, NCCL.size()) == NCCL) {
      r.kind = CpuRangeKind::NcclAnnotation;
      r.name = intern(name.substr(NCCL.size()));
    } else if (name == "record_param_comms") {
      r.kind = CpuRangeKind::RecordParamComms;
    } else if (name.substr(0, STEP.size()) == STEP) {
      auto n = exactInteger(name.substr(STEP.size()), ID_LIMIT);
      if (!n || *n < 0 || name.find_first_not_of("0123456789", STEP.size()) != std::string::npos)
        return;
      r.kind = CpuRangeKind::Step;
      r.step = *n;
    } else {
      return;
    }
    r.thread = {e.pid, e.tid};
    r.start_ns = ts;
    r.end_ns = ts + dur;
    r.externalId = checkedArg(A_EXTERNAL_ID, -1);
    if (r.kind != CpuRangeKind::Step) r.comm = keepComm();
    charge(sizeof(RawCpuRange));
    m_trace.ranges.push_back(r);
  }

  JsonPull m_json;
  ReadLimits m_limits;
  ByteSource& m_source;
  RawTrace m_trace;
  std::unordered_map<std::string, uint32_t> m_names;
  uint64_t m_nameBytes = 0, m_recordBytes = 0;
  int64_t m_eventIndex = -1;
  Event m_event;
  std::string m_key, m_number, m_text;
};

Result<RawTrace> readFrom(ByteSource& source, const std::string& name, const ReadLimits& limits) {
  source.limit(limits);
  Reader reader(source, name, limits);
  try {
    return reader.read();
  } catch (const PullError& e) {
    std::string where = name + ": ";
    if (reader.eventIndex() >= 0)
      where += "traceEvents[" + std::to_string(reader.eventIndex()) + "], ";
    return Result<RawTrace>::failure(where + e.what());
  } catch (const std::bad_alloc&) {
    return Result<RawTrace>::failure(name + ": out of memory while reading the trace");
  }
}

}  // namespace

Result<RawTrace> readKinetoFile(const std::filesystem::path& path, const ReadLimits& limits) {
  auto source = ByteSource::openFile(path);
  if (!source) return Result<RawTrace>::failure(source.error());
  return readFrom(**source, path.string(), limits);
}

Result<RawTrace> readKinetoBytes(std::string_view bytes, const std::string& name,
                                 const ReadLimits& limits) {
  auto source = ByteSource::fromMemory(bytes);
  return readFrom(*source, name, limits);
}

}  // namespace sim::trace
