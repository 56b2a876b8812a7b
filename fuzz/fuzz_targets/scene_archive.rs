//! Binary scene file decoder (`daylit_scene::archive::decode`).
//!
//! The payload is protected by a length and a CRC-32, which random mutation almost never
//! satisfies. So each input is decoded twice: once as is (header, tag, version, length and
//! checksum checks), and once with the input treated as the *payload* and wrapped in a valid
//! header, length and checksum (so the mutations reach the record decoder). A successfully
//! decoded scene is encoded and decoded again. Only "no panic, no hang" is checked.
#![no_main]

use daylit_scene::archive::{decode, encode, MAGIC, VERSION};
use libfuzzer_sys::fuzz_target;

fn wrap(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 64);
    out.extend_from_slice(MAGIC.as_bytes());
    out.extend_from_slice(format!("\nFORMAT=daylit_scene\nVERSION={VERSION}\n\n").as_bytes());
    out.extend_from_slice(b"DLSC");
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

fn roundtrip(bytes: &[u8]) {
    if let Ok(scene) = decode(bytes) {
        let again = encode(&scene, &["fuzz".to_string()]);
        let _ = decode(&again);
    }
}

fuzz_target!(|data: &[u8]| {
    roundtrip(data);
    roundtrip(&wrap(data));
});
