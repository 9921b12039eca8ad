// The replay's activity queries (sim/trace/activity.h) against a brute-force count over every
// nanosecond of a small random timeline, and the kernel-name and NCCL-name rules
// (sim/trace/classify.h) on names taken from the real traces and from NCCL's sources.
#include <gtest/gtest.h>

#include <random>

#include "sim/trace/activity.h"
#include "sim/trace/classify.h"

namespace st = sim::trace;

namespace {

st::RankTrace randomRank(uint32_t seed) {
  std::mt19937 rng(seed);
  st::RankTrace rank;
  rank.streams = {{0, 7}, {0, 40}};
  for (int i = 0; i < 60; ++i) {
    st::GpuInterval iv;
    iv.start_ns = std::uniform_int_distribution<int64_t>(0, 900)(rng);
    iv.end_ns = iv.start_ns + std::uniform_int_distribution<int64_t>(0, 60)(rng);
    iv.cls = static_cast<st::GpuClass>(std::uniform_int_distribution<int>(0, 5)(rng));
    iv.stream = static_cast<uint32_t>(i % 2);
    rank.intervals.push_back(iv);
  }
  std::sort(
      rank.intervals.begin(), rank.intervals.end(),
      [](const st::GpuInterval& a, const st::GpuInterval& b) { return a.start_ns < b.start_ns; });
  for (size_t i = 0; i < rank.intervals.size(); ++i) {
    if (rank.intervals[i].cls == st::GpuClass::Communication) {
      rank.intervals[i].collective = static_cast<int32_t>(rank.collectives.size());
      rank.collectives.push_back({});
    }
  }
  return rank;
}

}  // namespace

TEST(TraceActivity, QueriesMatchABruteForceCount) {
  for (uint32_t seed : {1u, 2u, 3u, 4u}) {
    const st::RankTrace rank = randomRank(seed);
    const st::ActivityIndex index(rank);
    // busy[c][t]: whether some interval of class c covers nanosecond t ([start, end)).
    std::vector<std::vector<bool>> busy(st::GPU_CLASS_COUNT, std::vector<bool>(1000, false));
    for (const st::GpuInterval& iv : rank.intervals) {
      for (int64_t t = iv.start_ns; t < iv.end_ns; ++t) busy[static_cast<int>(iv.cls)][t] = true;
    }
    for (int64_t t = 0; t < 1000; ++t) {
      uint32_t bits = 0;
      for (int c = 0; c < st::GPU_CLASS_COUNT; ++c) bits |= busy[c][t] ? 1u << c : 0u;
      ASSERT_EQ(index.activeAt(t), bits) << "seed " << seed << " t " << t;
      const int64_t at = index.collectiveAt(t);
      if (busy[static_cast<int>(st::GpuClass::Communication)][t]) {
        ASSERT_GE(at, 0);
        const st::GpuInterval& iv = rank.intervals[static_cast<size_t>(at)];
        EXPECT_EQ(iv.cls, st::GpuClass::Communication);
        EXPECT_TRUE(iv.start_ns <= t && t < iv.end_ns);
      } else {
        EXPECT_EQ(at, -1) << t;
      }
    }
    for (int c = 0; c < st::GPU_CLASS_COUNT; ++c) {
      for (auto [from, to] : {std::pair<int64_t, int64_t>{0, 1000},
                              {137, 512},
                              {-50, 20},
                              {990, 2000},
                              {400, 400},
                              {600, 300}}) {
        int64_t count = 0;
        for (int64_t t = std::max<int64_t>(from, 0); t < std::min<int64_t>(to, 1000); ++t)
          count += busy[c][t];
        EXPECT_EQ(index.busyTime(static_cast<st::GpuClass>(c), from, to), count);
        const double expected = to > from ? static_cast<double>(count) / (to - from) : 0.0;
        EXPECT_DOUBLE_EQ(index.busyFraction(static_cast<st::GpuClass>(c), from, to), expected);
      }
    }
  }
}

TEST(TraceClassify, KernelNamesFromRealTraces) {
  using st::GpuClass;
  EXPECT_EQ(st::classifyKernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned "
                               "long, ncclWork*)"),
            GpuClass::Communication);
  EXPECT_EQ(st::classifyKernel("ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)"),
            GpuClass::Communication);
  EXPECT_EQ(
      st::classifyKernel("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_"
                         "align4>(cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4::Params)"),
      GpuClass::Gemm);
  EXPECT_EQ(st::classifyKernel("volta_sgemm_64x64_nt"), GpuClass::Gemm);
  EXPECT_EQ(st::classifyKernel("cudnn_infer_volta_scudnn_128x64_relu_medium_nn_v1"),
            GpuClass::Gemm);
  EXPECT_EQ(st::classifyKernel("sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32"),
            GpuClass::Gemm);
  EXPECT_EQ(st::classifyKernel("Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN"),
            GpuClass::Gemm);
  EXPECT_EQ(st::classifyKernel("flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>"),
            GpuClass::Attention);
  EXPECT_EQ(st::classifyKernel("fmha_cutlassF_f16_aligned_64x64_rf_sm80"), GpuClass::Attention);
  EXPECT_EQ(st::classifyKernel("void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, "
                               "true, 1>(float, float)"),
            GpuClass::OtherCompute);
  EXPECT_EQ(st::classifyKernel("void at::native::vectorized_elementwise_kernel<4, "
                               "at::native::CUDAFunctor_add<float>>(int)"),
            GpuClass::OtherCompute);
}

TEST(TraceClassify, CollectiveKindsFromEverySpelling) {
  EXPECT_EQ(st::collectiveKind("allreduce"), "allreduce");
  EXPECT_EQ(st::collectiveKind("all_reduce"), "allreduce");
  EXPECT_EQ(st::collectiveKind("_all_gather_base"), "allgather");
  EXPECT_EQ(st::collectiveKind("all_gather_into_tensor_coalesced"), "allgather");
  EXPECT_EQ(st::collectiveKind("_reduce_scatter_base"), "reducescatter");
  EXPECT_EQ(st::collectiveKind("all_to_all"), "alltoall");
  EXPECT_EQ(st::collectiveKind("alltoall_base"), "alltoall");
  EXPECT_EQ(st::collectiveKind("broadcast"), "broadcast");
  EXPECT_EQ(st::collectiveKind("reduce"), "reduce");
  EXPECT_EQ(st::collectiveKind("send"), "send");
  EXPECT_EQ(st::collectiveKind("recv"), "recv");
  EXPECT_EQ(st::collectiveKind("Something_Else"), "somethingelse");
  EXPECT_EQ(st::collectiveFromKernelName("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(x)"),
            "sendrecv");
  EXPECT_EQ(st::collectiveFromKernelName("ncclDevKernel_AllGather_RING_LL(x)"), "allgather");
  EXPECT_EQ(st::collectiveFromKernelName("ncclDevKernel_Generic_4(x)"), "");
}

TEST(TraceClassify, AlgorithmAndProtocolFromKernelNames) {
  // NCCL's kernel names: ncclKernel_<Coll>_<ALGO>_<PROTO>_<op>_<type> (<= 2.18) and
  // ncclDevKernel_<Coll>_<op>_<type>_<ALGO>_<PROTO> (>= 2.19).
  auto a = st::algorithmProtocolFromKernelName("ncclKernel_AllReduce_RING_LL_Sum_float(x)");
  EXPECT_EQ(a.algorithm, "RING");
  EXPECT_EQ(a.protocol, "LL");
  a = st::algorithmProtocolFromKernelName("ncclDevKernel_AllReduce_Sum_bf16_TREE_LL128(x)");
  EXPECT_EQ(a.algorithm, "TREE");
  EXPECT_EQ(a.protocol, "LL128");
  a = st::algorithmProtocolFromKernelName("ncclDevKernel_AllReduce_Sum_f32_COLLNET_DIRECT_SIMPLE");
  EXPECT_EQ(a.algorithm, "COLLNET_DIRECT");
  EXPECT_EQ(a.protocol, "SIMPLE");
  a = st::algorithmProtocolFromKernelName("ncclDevKernel_Generic_4(x)");
  EXPECT_EQ(a.algorithm, "");
  EXPECT_EQ(a.protocol, "");
}

TEST(TraceClassify, DtypeSizesAsC10Defines) {
  EXPECT_EQ(st::dtypeBytes("Float"), 4);
  EXPECT_EQ(st::dtypeBytes("float"), 4);
  EXPECT_EQ(st::dtypeBytes("c10::Half"), 2);
  EXPECT_EQ(st::dtypeBytes("BFloat16"), 2);
  EXPECT_EQ(st::dtypeBytes("Long"), 8);
  EXPECT_EQ(st::dtypeBytes("long int"), 8);
  EXPECT_EQ(st::dtypeBytes("unsigned char"), 1);
  EXPECT_EQ(st::dtypeBytes("Float8_e4m3fn"), 1);
  EXPECT_EQ(st::dtypeBytes("Double"), 8);
  EXPECT_EQ(st::dtypeBytes("TensorList"), 0);
  EXPECT_EQ(st::dtypeBytes(""), 0);
}
