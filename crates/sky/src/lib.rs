//! Sun and sky for daylit: solar position, RADIANCE's CIE skies (`gensky`), the Perez
//! all-weather sky (`gendaylit`), weather files (EPW, WEA, TMY3), sky subdivisions (Tregenza,
//! Reinhart MF:N, Shirley-Chiu) and sky matrices (`gendaymtx`).

pub mod gendaylit;
pub mod gendaymtx;
pub mod gensky;
pub mod patches;
pub mod perez;
pub mod solar;
pub mod weather;
