//! Receiver and sender files whose surfaces come from inline commands, as honeybee-radiance
//! writes them (`!xform ./model/aperture_group/NAME.mtx.rad`): daylit expands the commands it
//! runs natively and reads the result as rfluxmtx reads a command's output; another command
//! is an error naming the file and line.

use daylit_coefficients::rfluxmtx::read_receivers;
use daylit_coefficients::rfluxmtx::sender::read_sender;

const WINDOW: &str = "#@rfluxmtx h=kf u=Z\nvoid glow window_glow 0 0 4 1 1 1 0\n\
                      window_glow polygon window 0 0 12 0.5 0 0.8  0.5 0 2.5  3.5 0 2.5  3.5 0 0.8\n";

#[test]
fn xform_lines_read_as_their_output() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.rad");
    std::fs::write(&plain, WINDOW).unwrap();
    // The annotation stays in the file; the surfaces come from the command, moved 1 m up.
    let body = dir.path().join("body.rad");
    std::fs::write(&body, WINDOW.lines().skip(1).collect::<Vec<_>>().join("\n")).unwrap();
    let inline = dir.path().join("inline.rad");
    std::fs::write(
        &inline,
        format!("#@rfluxmtx h=kf u=Z\n!xform -t 0 0 1 {}\n", body.display()),
    )
    .unwrap();
    let (a, b) = (
        read_receivers(&plain).unwrap(),
        read_receivers(&inline).unwrap(),
    );
    assert_eq!(a.receivers.len(), 1);
    assert_eq!(b.receivers.len(), 1);
    assert_eq!(a.receivers[0].normal, b.receivers[0].normal);
    assert_eq!(a.receivers[0].bin_count(), 145);
    assert_eq!(b.receivers[0].bin_count(), 145);
    let (s, t) = (read_sender(&plain).unwrap(), read_sender(&inline).unwrap());
    let z = |p: glam::DVec3| p.z;
    assert!(
        (z(t.surfaces[0].point(0.5, 0.5)) - z(s.surfaces[0].point(0.5, 0.5)) - 1.0).abs() < 1e-9
    );
}

#[test]
fn other_commands_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("recv.rad");
    std::fs::write(&f, "#@rfluxmtx h=kf u=Z\n\n!cat window.rad\n").unwrap();
    let e = read_receivers(&f).unwrap_err().to_string();
    assert!(
        e.contains("recv.rad:3:") && e.contains("!cat window.rad"),
        "{e}"
    );
    let e = read_sender(&f).unwrap_err().to_string();
    assert!(
        e.contains("recv.rad:3:") && e.contains("!cat window.rad"),
        "{e}"
    );
}
