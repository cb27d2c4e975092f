//! Flux's `spec.decryption`: the controller decrypts SOPS-encrypted Secrets while it builds.
//! tailor holds no keys, so an encrypted Secret (one with a `sops:` block) under a
//! Kustomization that asks for decryption is an error, never passed on still encrypted.

use super::{Context, Declaration, Scope, Sees, Stage};
use crate::stages::Tailoring;
use tailor_kio::{KrmResult, Resource};

pub struct SopsSecrets;

impl Stage<Tailoring> for SopsSecrets {
    fn declares(&self) -> Declaration {
        Declaration::new("sops check", Scope::SharedEach)
            // Only the options decide what it does.
            .sees(Sees::NOTHING)
    }

    fn run(&self, items: &mut Vec<Resource>, ctx: &mut Context<'_>) {
        for item in items.iter() {
            if item.kind() == "Secret" && item.node().contains_key("sops") {
                ctx.log.results.push(
                    KrmResult::error(format!(
                        "{} is encrypted with SOPS and spec.decryption asks to decrypt it: tailor holds no keys and cannot; decrypt it before tailor (sops --decrypt) or leave it out",
                        item.display_id()
                    ))
                    .about(item)
                    .at_field("sops"),
                );
            }
        }
    }
}

/// The stage's example (kustomize keeps an `example_test.go` beside each filter): objects in,
/// the stage run on them, the objects written out.
#[cfg(test)]
mod example {
    use super::SopsSecrets;
    use crate::stages::example::{run_stage, Setup};

    #[test]
    fn sops_check_refuses_an_encrypted_secret() {
        let input = "\
apiVersion: v1
kind: Secret
metadata:
  name: db
data:
  password: ENC[AES256_GCM,data:abc=,type:str]
sops:
  version: 3.8.1
---
apiVersion: v1
kind: Secret
metadata:
  name: plain
data:
  password: cGxhaW4=
";
        let (_, results) = run_stage(&SopsSecrets, input, &Setup::default());
        // tailor holds no keys: the encrypted Secret is an error, the plain one passes.
        assert_eq!(
            results,
            ["[error] v1/Secret/db sops: v1/Secret/db is encrypted with SOPS and spec.decryption asks to decrypt it: tailor holds no keys and cannot; decrypt it before tailor (sops --decrypt) or leave it out"]
        );
    }
}
