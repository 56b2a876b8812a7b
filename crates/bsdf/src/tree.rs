//! Tensor trees (TensorTree3, TensorTree4).

use crate::xml::Ctx;
use crate::{Bsdf, BsdfError, Value};
use glam::DVec3;
use roxmltree::Node;

#[derive(Debug)]
pub struct Tree {}

impl Tree {
    pub fn eval(&self, _i: DVec3, _o: DVec3) -> Option<Value> {
        None
    }
    pub fn hemi(&self, _i: DVec3) -> f64 {
        0.0
    }
    pub fn sample(&self, _i: DVec3, _u: f64) -> Option<DVec3> {
        None
    }
    pub fn proj_sa(&self, _psa: &mut (f64, f64), _v1: DVec3, _v2: Option<DVec3>) {}
}

pub(crate) fn load(cx: &Ctx, layer: Node, _ndim: usize, _b: &mut Bsdf) -> Result<(), BsdfError> {
    Err(cx.err(layer, "tensor-tree BSDF data is not supported yet"))
}
