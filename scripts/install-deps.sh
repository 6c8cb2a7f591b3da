#!/usr/bin/env bash
# Installs the Debian packages vksort builds and tests with (docs/ARCHITECTURE.md, "Dependencies").
# Installs only what is missing; uses sudo when not root.
set -euo pipefail
pkgs=(cmake g++ make libvulkan-dev libvulkan-volk-dev glslc glslang-tools spirv-tools
      doctest-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools python3
      libglfw3-dev xvfb xauth clang-format-14)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
((${#missing[@]})) || exit 0
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
echo "installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
