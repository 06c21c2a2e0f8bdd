#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

// Casts between f32 and the 16-bit types, in either direction.
ElementwiseKernel findCast(const ElementwiseLaunch& launch) {
  return elementwise::withType(launch.in, [&](auto in) {
    return elementwise::withType(launch.out, [&](auto out) -> ElementwiseKernel {
      using In = typename decltype(in)::type;
      using Out = typename decltype(out)::type;
      if constexpr (!std::is_same_v<In, Out> &&
                    (std::is_same_v<In, float> || std::is_same_v<Out, float>))
        return elementwise::findTyped<elementwise::Cast, Out, In>(launch);
      else
        throw Error(ErrorKind::Internal, "cast: no kernel between these types");
    });
  });
}

}  // namespace kwb
