//! The mail templates (templates/mail/), compiled into the binary. Each
//! kind of mail has a subject, a plain-text and an HTML template; `.html`
//! templates escape what they insert, the others do not.

use minijinja::{Environment, UndefinedBehavior, value::Serde};
use serde_json::Value;

macro_rules! templates {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../templates/mail/", $name)))),*]
    };
}

const SOURCES: &[(&str, &str)] = templates![
    "layout.html",
    "footer.txt",
    "invitation.subject.txt",
    "invitation.txt",
    "invitation.html",
    "accepted.subject.txt",
    "accepted.txt",
    "accepted.html",
    "declined.subject.txt",
    "declined.txt",
    "declined.html",
    "your_move.subject.txt",
    "your_move.txt",
    "your_move.html",
    "game_over.subject.txt",
    "game_over.txt",
    "game_over.html",
];

pub struct Rendered {
    pub subject: String,
    pub text: String,
    pub html: String,
}

pub struct Templates {
    env: Environment<'static>,
}

impl Templates {
    /// Compiles every template; a syntax error is caught by the unit test
    /// below, never first in production.
    pub fn new() -> Result<Templates, String> {
        let mut env = Environment::new();
        // A misspelt variable fails the mail (and its test) instead of
        // rendering as an empty string.
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        for (name, source) in SOURCES {
            env.add_template(name, source)
                .map_err(|e| format!("template {name}: {e}"))?;
        }
        Ok(Templates { env })
    }

    /// Renders the mail of `kind` from its context.
    pub fn render(&self, kind: &str, context: &Value) -> Result<Rendered, String> {
        let render = |name: String| -> Result<String, String> {
            self.env
                .get_template(&name)
                .and_then(|t| t.render(Serde(context)))
                .map_err(|e| format!("template {name}: {e}"))
        };
        let subject = render(format!("{kind}.subject.txt"))?;
        Ok(Rendered {
            // A header is one line.
            subject: subject.split_whitespace().collect::<Vec<_>>().join(" "),
            text: render(format!("{kind}.txt"))?,
            html: render(format!("{kind}.html"))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_template_compiles_and_html_is_escaped() {
        let t = Templates::new().unwrap();
        let ctx = json!({
            "base_url": "https://hexpost.example.org",
            "settings_url": "https://hexpost.example.org/api/v1/account/notifications",
            "game_id": "g1", "player": "Ada", "opponent": "<Grace>", "variant": "duel",
        });
        let r = t.render("accepted", &ctx).unwrap();
        assert_eq!(r.subject, "<Grace> accepted your game of duel");
        assert!(r.text.contains("<Grace> accepted"));
        assert!(r.html.contains("&lt;Grace&gt; accepted"));
        assert!(r.text.contains("https://hexpost.example.org/games/g1"));
        // A missing variable is an error, not an empty string.
        assert!(t.render("your_move", &ctx).is_err());
    }
}
