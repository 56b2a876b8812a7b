//! daylit-geometry
