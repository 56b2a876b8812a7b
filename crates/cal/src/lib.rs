//! daylit-cal
