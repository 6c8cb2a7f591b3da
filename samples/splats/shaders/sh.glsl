// View-dependent colour from a splat's spherical harmonics, as 3D Gaussian Splatting evaluates
// them (real SH of degree 1-3 in the direction from the camera to the splat; +0.5 already in the
// degree-0 term). Layout per splat (splat_scene.hpp: Scene::sh): 3 * (degree + 1)^2 floats, the
// degree-0 colour then each higher coefficient's RGB.
#ifndef SPLATS_SH_GLSL
#define SPLATS_SH_GLSL

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Floats { float v[]; };

vec3 shCoefficient(Floats sh, uint base, uint j) {
  return vec3(sh.v[base + 3u * j], sh.v[base + 3u * j + 1u], sh.v[base + 3u * j + 2u]);
}

vec3 shColor(Floats sh, uint splat, uint degree, vec3 dir) {
  uint base = splat * 3u * (degree + 1u) * (degree + 1u);
  vec3 c = shCoefficient(sh, base, 0u);
  float x = dir.x, y = dir.y, z = dir.z;
  if (degree >= 1u) {
    const float C1 = 0.4886025119029199;
    c += C1 * (-y * shCoefficient(sh, base, 1u) + z * shCoefficient(sh, base, 2u) - x * shCoefficient(sh, base, 3u));
  }
  if (degree >= 2u) {
    float xx = x * x, yy = y * y, zz = z * z;
    c += 1.0925484305920792 * x * y * shCoefficient(sh, base, 4u) - 1.0925484305920792 * y * z * shCoefficient(sh, base, 5u) +
         0.31539156525252005 * (2.0 * zz - xx - yy) * shCoefficient(sh, base, 6u) -
         1.0925484305920792 * x * z * shCoefficient(sh, base, 7u) + 0.5462742152960396 * (xx - yy) * shCoefficient(sh, base, 8u);
    if (degree >= 3u) {
      c += -0.5900435899266435 * y * (3.0 * xx - yy) * shCoefficient(sh, base, 9u) +
           2.890611442640554 * x * y * z * shCoefficient(sh, base, 10u) -
           0.4570457994644658 * y * (4.0 * zz - xx - yy) * shCoefficient(sh, base, 11u) +
           0.3731763325901154 * z * (2.0 * zz - 3.0 * xx - 3.0 * yy) * shCoefficient(sh, base, 12u) -
           0.4570457994644658 * x * (4.0 * zz - xx - yy) * shCoefficient(sh, base, 13u) +
           1.445305721320277 * z * (xx - yy) * shCoefficient(sh, base, 14u) -
           0.5900435899266435 * x * (xx - 3.0 * yy) * shCoefficient(sh, base, 15u);
    }
  }
  return clamp(c, 0.0, 1.0);
}

#endif  // SPLATS_SH_GLSL
