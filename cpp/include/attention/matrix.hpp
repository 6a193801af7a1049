// The matrix types at the API: row-major float32, so a matrix is one flat array in the same
// order as a JS Float32Array or a NumPy array in C order.
#pragma once

#include <Eigen/Core>

namespace attention {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic, Eigen::RowMajor>;
// 0/1 attention mask [n_query × n_key]; 1 means "query i may attend to key j".
using MaskMatrix = Eigen::Matrix<unsigned char, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace attention
