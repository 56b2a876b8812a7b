//! Annual daylight, apart from the simulation: occupancy schedules ([`schedule`]), sensor
//! points and work-plane grids ([`sensors`]), climate-based metrics ([`metrics`]: DA, cDA,
//! UDI, mean illuminance, sDA, ASE) and their reports ([`report`]: JSON, CSV, terminal
//! summary; [`maps`]: PNG plan views with the room drawn in from [`plan`]; [`temporal`]:
//! day × hour maps; [`html`]: the offline `report.html`) and their Monte Carlo uncertainty
//! ([`uncertainty`]).
//!
//! ```no_run
//! use daylit_annual::{metrics, report, maps, Illuminance, MetricOptions, Schedule, SensorSet};
//! # fn run(weather: &daylit_sky::weather::Weather, lux: &[f32], sun: &[f32]) -> Result<(), Box<dyn std::error::Error>> {
//! let sensors = SensorSet::from_polygon(&[[0.,0.,0.],[4.,0.,0.],[4.,3.,0.],[0.,3.,0.]], &Default::default())?;
//! let schedule = Schedule::office(&weather.records);
//! let (n, h) = (sensors.len(), schedule.len());
//! let m = metrics::compute(&Illuminance::sensor_major(lux, n, h),
//!     Some(&Illuminance::sensor_major(sun, n, h)), &schedule, &MetricOptions::default())?;
//! print!("{}", report::summary(&m));
//! report::write_json("out/annual.json".as_ref(), &m)?;
//! maps::write_maps("out/maps".as_ref(), &sensors, &m, None, None)?;
//! # Ok(()) }
//! ```

pub mod glare_report;
pub mod html;
pub mod maps;
pub mod metrics;
pub mod plan;
pub mod report;
pub mod schedule;
pub mod sensors;
pub mod temporal;
pub mod uncertainty;

/// How a result was made (defined with RADIANCE's file conventions in `daylit-radfile`).
pub use daylit_radfile::provenance::{InputFile, Provenance};
pub use metrics::{compute, AnnualMetrics, Illuminance, Layout, MetricOptions, MetricsError};
pub use report::{write_atomic, ReportError};
pub use schedule::{Schedule, ScheduleError};
pub use sensors::{
    check_position, Grid, GridCell, GridOptions, Sensor, SensorError, SensorSet, SENSOR_REACH,
};
