//! daylit-scene
