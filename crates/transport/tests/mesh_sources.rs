//! Triangles of a placed compiled mesh (a `mesh` primitive) are not light sources, as in
//! RADIANCE, which looks for sources among the scene's own surfaces only; the same triangles
//! read from an OBJ file at the top level are.

use daylit_compile::compile;
use daylit_scene::{load_scene_text, LoadOptions, LocalMesh, Mesh, Placement};
use daylit_transport::{Options, Renderer};
use std::sync::Arc;

fn renderer(placed: bool) -> Renderer {
    let text = "void light lamp 0 0 3 100 100 100\n\
                void plastic white 0 0 5 .5 .5 .5 0 0\n\
                white polygon floor 0 0 12 -5 -5 0  5 -5 0  5 5 0  -5 5 0\n";
    let dir = std::env::temp_dir();
    let mut scene = load_scene_text(text, "test", &dir, &LoadOptions::default()).unwrap();
    let lamp = scene.find_modifier("lamp");
    let vertices = vec![[0.0, 0.0, 2.0], [1.0, 0.0, 2.0], [0.0, 1.0, 2.0]];
    let triangles = vec![[0, 2, 1]];
    scene.meshes.push(Mesh {
        source: "lamp.rtm".into(),
        vertices: vertices.clone(),
        triangles: triangles.clone(),
        tri_modifier: vec![0],
        modifiers: vec![lamp],
        placement: placed.then(|| Placement {
            local: Arc::new(LocalMesh {
                vertices,
                triangles,
            }),
            to_world: glam::DMat4::IDENTITY,
        }),
        ..Default::default()
    });
    let compiled = compile(&scene);
    Renderer::new(
        scene,
        compiled,
        Options::rtrace(),
        &daylit_cal::RayPath::new([dir]),
    )
    .unwrap()
}

#[test]
fn placed_mesh_lights_are_not_sources() {
    assert_eq!(
        renderer(false).sources.len(),
        1,
        "a top-level emitting mesh is a source"
    );
    assert!(
        renderer(true).sources.is_empty(),
        "a mesh primitive's lamp is not"
    );
}
