#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

// Casts between f32 and the 16-bit types, in either direction.
void launchCast(const ElementwiseLaunch& launch, cudaStream_t stream) {
  elementwise::withType(launch.in, [&](auto in) {
    elementwise::withType(launch.out, [&](auto out) {
      using In = typename decltype(in)::type;
      using Out = typename decltype(out)::type;
      if constexpr (!std::is_same_v<In, Out> && (std::is_same_v<In, float> || std::is_same_v<Out, float>))
        elementwise::launchTyped<elementwise::Cast, Out, In>(launch, stream);
      else
        throw Error(ErrorKind::Internal, "cast: no kernel between these types");
    });
  });
}

}  // namespace kwb
