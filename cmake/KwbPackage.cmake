# A Debian package of what `cmake --install` puts in place: `cpack -G DEB` in a build folder.
# Its dependencies on Debian's libraries come from dpkg-shlibdeps; the CUDA pieces are not in
# Debian 12 (its toolkit is 11.8), so the package names them as recommendations from NVIDIA's
# repository and its description says what must be there.
set(CPACK_PACKAGE_NAME kernel-workbench)
set(CPACK_PACKAGE_VENDOR "Kernel Workbench")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Kernel Workbench developers")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${KWB_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# NVRTC and CUPTI come from the toolkit the build used; dpkg-shlibdeps finds no Debian package for
# them and would stop.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${CUDAToolkit_LIBRARY_DIR}")
set(KWB_CUDA_SERIES "${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "cuda-nvrtc-${KWB_CUDA_SERIES}, cuda-cupti-${KWB_CUDA_SERIES}, desktop-file-utils")
set(KWB_CUDA_VERSION "${CUDAToolkit_VERSION_MAJOR}.${CUDAToolkit_VERSION_MINOR}")
# CPack puts the summary first and indents these paragraphs as Debian's control file wants.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Run CUDA kernel variants (built-in families and your own kernel files,
compiled with NVRTC), sweep and tune their launch configurations, read their
hardware counters and keep every run in a history to plot, compare and export.

Running kernels needs an NVIDIA driver (libcuda.so.1) and CUDA ${KWB_CUDA_VERSION}'s
NVRTC and CUPTI (libnvrtc.so.${CUDAToolkit_VERSION_MAJOR}, libcupti.so.${CUDAToolkit_VERSION_MAJOR}),
which Debian does not carry: install cuda-nvrtc-${KWB_CUDA_SERIES} and
cuda-cupti-${KWB_CUDA_SERIES} from NVIDIA's CUDA repository, or the CUDA toolkit in
/usr/local/cuda.")
include(CPack)
