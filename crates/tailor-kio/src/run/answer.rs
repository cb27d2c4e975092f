//! The KRM function's run: one ResourceList in, its answer streamed out. How the items are
//! read is decided once, here, from the functionConfig read ahead of them.

use std::io::Write;

use crate::host::{Guest, Host};
use crate::job::Job;
use crate::reading::{
    keeps_trees, original_items, read_ahead, read_items, reading_holds, Ahead, Parse, Reading,
};
use crate::write::{write_resource_list, write_resource_list_to, ListSyntax, Rendering};
use crate::{KrmResult, Resource};

use super::{process_into, HeldForm, Tailored};

/// The KRM function's answer to `text`, its ResourceList streamed to `out`, with the items
/// read as the job read ahead allows (`TAILOR_KEEP_TREES=1` keeps every tree); `parse` makes
/// the job of a functionConfig.
pub fn answer<J: Job>(text: String, parse: Parse<J>, out: &mut dyn Write) -> Answer {
    let ahead = read_ahead(&text, parse);
    let reading = match &ahead {
        Some(a) if !keeps_trees() => a.reading(),
        _ => Reading::Keep,
    };
    respond_ahead(text, parse, ahead, reading, out)
}

/// What the KRM function answered: the exit code and the results (also in the output), and
/// what the run leaves behind (the items' trees: drop it, or forget it when the process is
/// about to exit).
pub struct Answer {
    pub code: i32,
    pub results: Vec<KrmResult>,
    _items: Vec<Resource>,
}

/// The KRM function's answer to one input text, its ResourceList streamed to `out`, with its
/// items read as `reading` says (the answer is the same whichever way they are read).
pub fn respond<J: Job>(
    text: String,
    parse: Parse<J>,
    reading: Reading,
    out: &mut dyn Write,
) -> Answer {
    let ahead = read_ahead(&text, parse);
    respond_ahead(text, parse, ahead, reading, out)
}

/// [`respond`] with the functionConfig already read ahead: when the run's functionConfig is
/// that one, its job is the one that runs.
fn respond_ahead<J: Job>(
    text: String,
    parse: Parse<J>,
    ahead: Option<Ahead<J>>,
    reading: Reading,
    out: &mut dyn Write,
) -> Answer {
    let input = match read_items(text, reading, ahead.as_ref()) {
        Ok(i) => i,
        Err(unread) => {
            // Unread, the items still come back as written, with the error.
            let items = crate::read::items_as_written(&unread.source);
            let results = vec![unread.result];
            let _ = out.write_all(write_resource_list(&items, None, &results).as_bytes());
            return Answer {
                code: 1,
                results,
                _items: items,
            };
        }
    };
    let source = input.source.clone();
    let syntax = if input.json {
        ListSyntax::Json
    } else {
        ListSyntax::Yaml
    };
    let fc = input.function_config.clone();
    let mut items = input.items;
    let same_config = ahead.as_ref().is_some_and(|a| a.is_for(fc.as_ref()));
    let job = match ahead {
        Some(a) if same_config => a.job,
        _ => parse(fc.as_ref()),
    };
    let outcome = match job {
        Ok(job) => {
            let guest = Guest {
                host: Host::of(&items),
                own_config: fc.as_ref().and_then(crate::host::OwnConfig::of),
            };
            if !reading_holds(reading, same_config, &job) {
                // The items were changed as read for another functionConfig than the run's:
                // read them again, as they were.
                items = original_items(&source);
            }
            // The copies of a fan-out are held as the items this answer writes.
            let held = HeldForm::Text {
                rendering: Rendering::Item(syntax),
                ready: Resource::record_output_path,
            };
            process_into(items, &job, &guest, None, held)
        }
        Err(results) => Tailored::new(Vec::new(), results, true),
    };
    let items = if outcome.failed {
        original_items(&source)
    } else {
        let mut items = outcome.items;
        for item in &mut items {
            item.record_output_path();
        }
        items
    };
    let _ = write_resource_list_to(out, &items, fc.as_ref(), &outcome.results, syntax);
    Answer {
        code: i32::from(outcome.failed),
        results: outcome.results,
        _items: items,
    }
}
