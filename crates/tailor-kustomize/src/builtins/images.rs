//! kustomize's ImageTagTransformer (`images:`): for each image entry in order, first the
//! legacy walk (every `image` in a list under any `containers` or `initContainers` field,
//! at any depth), then the default field specs (`api/konfig/builtinpluginconsts/images.go`);
//! both skip CustomResourceDefinitions. `ephemeralContainers` are not covered by
//! either, so kustomize v5.5.0 leaves them alone, and so does this.

use regex::Regex;
use tailor_yaml::Node;

use crate::builtins::fieldspec::{set_string, split_path, walk, FieldSpec};
use crate::builtins::{describe, Error};
use tailor_kube::resid::{scalar_field, Gvk};

/// One `images:` entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// The image name to match: a registry/repository path without tag or digest. Like
    /// kustomize, it is used as a regular expression (so `.` matches any character).
    pub name: String,
    pub new_name: String,
    pub new_tag: String,
    pub digest: String,
}

/// kustomize v5.5.0's default image field specs (`create: true` has no effect: the filter
/// is not given a node kind to create, and the `[]` hints forbid it anyway).
const IMAGE_SPECS: &[FieldSpec<'static>] = &[
    FieldSpec::new("spec/containers[]/image"),
    FieldSpec::new("spec/initContainers[]/image"),
    FieldSpec::new("spec/template/spec/containers[]/image"),
    FieldSpec::new("spec/template/spec/initContainers[]/image"),
];

/// Applies `images` as kustomize's `images:` field does.
pub fn set_images(resources: &mut [Node], images: &[Image]) -> Result<(), Error> {
    for image in images {
        let matcher = Matcher::new(image)?;
        for node in resources.iter_mut() {
            if !node.is_mapping() || scalar_field(node, "kind") == "CustomResourceDefinition" {
                continue;
            }
            legacy_walk(node, &matcher).map_err(|e| {
                Error::new(format!("{}: image {}: {e}", describe(node), image.name))
            })?;
        }
        for node in resources.iter_mut() {
            // the field-spec filter has the same hard-coded CRD exemption (kustomize #890)
            if !node.is_mapping() || scalar_field(node, "kind") == "CustomResourceDefinition" {
                continue;
            }
            let gvk = Gvk::of(node);
            for spec in IMAGE_SPECS.iter().filter(|s| s.matches(&gvk)) {
                walk(node, &split_path(spec.path), false, &mut |n| {
                    matcher.update(n)
                })
                .map_err(|e| Error::new(format!("{}: {}: {e}", describe(node), spec.path)))?;
            }
        }
    }
    Ok(())
}

/// kustomize `findFieldsFilter`: depth first, a field's value is visited before the field
/// itself is considered.
fn legacy_walk(node: &mut Node, m: &Matcher) -> Result<(), String> {
    if let Some(items) = node.items_mut() {
        for item in items {
            legacy_walk(item, m)?;
        }
        return Ok(());
    }
    let Some(pairs) = node.pairs_mut() else {
        return Ok(());
    };
    for pair in pairs {
        legacy_walk(&mut pair.value, m)?;
        let key = pair.key.as_scalar().unwrap_or_default();
        if key != "containers" && key != "initContainers" {
            continue;
        }
        let Some(items) = pair.value.items_mut() else {
            continue;
        };
        for item in items {
            if let Some(image) = item.get_mut("image") {
                m.update(image)?;
            }
        }
    }
    Ok(())
}

struct Matcher<'a> {
    image: &'a Image,
    pattern: Regex,
}

impl<'a> Matcher<'a> {
    fn new(image: &'a Image) -> Result<Matcher<'a>, Error> {
        // kustomize `image.IsImageMatched`: the name is spliced into the pattern unescaped
        let pattern = format!(
            "^{}(:[a-zA-Z0-9_.{{}}-]*)?(@sha256:[a-zA-Z0-9_.{{}}-]*)?$",
            image.name
        );
        let pattern = Regex::new(&pattern).map_err(|e| {
            Error::new(format!(
                "images: name {:?} is not a valid pattern: {e}",
                image.name
            ))
        })?;
        Ok(Matcher { image, pattern })
    }

    /// kustomize `imageTagUpdater.SetImageValue`.
    fn update(&self, node: &mut Node) -> Result<(), String> {
        let value = if node.is_null() {
            ""
        } else {
            node.as_scalar()
                .ok_or_else(|| "wrong node kind: expected a scalar image".to_string())?
        };
        if !self.pattern.is_match(value) {
            return Ok(());
        }
        let (name, tag, digest) = split(value);
        let mut name = name.to_string();
        let (mut tag, mut digest) = (tag.to_string(), digest.to_string());
        let img = self.image;
        if !img.new_name.is_empty() {
            name = img.new_name.clone();
        }
        // a new tag or digest replaces both the old tag and the old digest
        match (img.new_tag.is_empty(), img.digest.is_empty()) {
            (false, false) => (tag, digest) = (img.new_tag.clone(), img.digest.clone()),
            (false, true) => (tag, digest) = (img.new_tag.clone(), String::new()),
            (true, false) => (tag, digest) = (String::new(), img.digest.clone()),
            (true, true) => {}
        }
        if !tag.is_empty() {
            name = format!("{name}:{tag}");
        }
        if !digest.is_empty() {
            name = format!("{name}@{digest}");
        }
        if node.as_scalar() != Some(name.as_str()) || node.is_null() {
            set_string(node, &name);
        }
        Ok(())
    }
}

/// kustomize `image.Split`: `[[host[:port]/]component/]component[:tag][@digest]` into name,
/// tag and digest. The first `/` ends the host part, so a registry port is not a tag.
pub fn split(image: &str) -> (&str, &str, &str) {
    let slash = match image.find('/') {
        Some(i) if i > 0 => i,
        _ => 0,
    };
    let search = &image[slash..];
    let at = search.find('@');
    let colon = search.find(':');
    match (at, colon) {
        (None, None) => (image, "", ""),
        // the digest comes first: no colon, or the colon is inside the digest
        (Some(d), c) if c.is_none_or(|c| d < c) => {
            let d = d + slash;
            (&image[..d], "", &image[d + 1..])
        }
        (Some(d), Some(c)) => {
            let (c, d) = (c + slash, d + slash);
            (&image[..c], &image[c + 1..d], &image[d + 1..])
        }
        (_, Some(c)) => {
            let c = c + slash;
            (&image[..c], &image[c + 1..], "")
        }
        // covered by the digest-only arm; kept so the match needs no unreachable!()
        (Some(_), None) => (image, "", ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_kustomize() {
        assert_eq!(split("nginx"), ("nginx", "", ""));
        assert_eq!(split("nginx:1.2.3"), ("nginx", "1.2.3", ""));
        assert_eq!(split("nginx@sha256:abc"), ("nginx", "", "sha256:abc"));
        assert_eq!(
            split("nginx:1.2@sha256:abc"),
            ("nginx", "1.2", "sha256:abc")
        );
        assert_eq!(
            split("localhost:5000/app:v1"),
            ("localhost:5000/app", "v1", "")
        );
        assert_eq!(split("localhost:5000/app"), ("localhost:5000/app", "", ""));
        assert_eq!(
            split("reg.io/team/app@sha256:ff"),
            ("reg.io/team/app", "", "sha256:ff")
        );
        // a leading slash is not a host separator
        assert_eq!(split("/a:b"), ("/a", "b", ""));
    }

    fn update(name: &str, new_name: &str, tag: &str, digest: &str, value: &str) -> String {
        let image = Image {
            name: name.into(),
            new_name: new_name.into(),
            new_tag: tag.into(),
            digest: digest.into(),
        };
        let m = Matcher::new(&image).unwrap();
        let mut n = Node::string(value);
        m.update(&mut n).unwrap();
        n.as_scalar().unwrap().to_string()
    }

    #[test]
    fn digest_and_tag_rules() {
        assert_eq!(update("nginx", "", "2", "", "nginx:1"), "nginx:2");
        assert_eq!(update("nginx", "", "2", "", "nginx@sha256:aa"), "nginx:2");
        assert_eq!(
            update("nginx", "", "", "sha256:bb", "nginx:1"),
            "nginx@sha256:bb"
        );
        assert_eq!(
            update("nginx", "", "2", "sha256:bb", "nginx:1"),
            "nginx:2@sha256:bb"
        );
        assert_eq!(update("nginx", "my/nginx", "", "", "nginx:1"), "my/nginx:1");
        assert_eq!(update("nginx", "", "", "", "nginx:1"), "nginx:1");
        // only whole names match, but the name is a regular expression
        assert_eq!(update("nginx", "", "2", "", "nginx-x:1"), "nginx-x:1");
        assert_eq!(update("nginx.x", "", "2", "", "nginxAx:1"), "nginxAx:2");
        // a digest other than sha256 does not match the pattern at all
        assert_eq!(update("nginx", "", "2", "", "nginx@md5:aa"), "nginx@md5:aa");
        assert_eq!(
            update("localhost:5000/app", "", "v2", "", "localhost:5000/app:v1"),
            "localhost:5000/app:v2"
        );
    }

    #[test]
    fn non_scalar_image_is_an_error() {
        let image = Image {
            name: "a".into(),
            ..Default::default()
        };
        let m = Matcher::new(&image).unwrap();
        let mut n = Node::mapping();
        assert!(m.update(&mut n).is_err());
    }

    #[test]
    fn invalid_pattern_is_an_error() {
        let image = Image {
            name: "a(".into(),
            ..Default::default()
        };
        assert!(Matcher::new(&image).is_err());
    }
}
