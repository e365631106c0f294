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
    "base.html",
    "layout.html",
    "picture.html",
    "footer.txt",
    "turn.txt",
    "turn.html",
    "commands.txt",
    "commands.html",
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
    "reminder.subject.txt",
    "reminder.txt",
    "reminder.html",
    "timeout.subject.txt",
    "timeout.txt",
    "timeout.html",
    "digest.subject.txt",
    "digest.txt",
    "digest.html",
    "answer_report.txt",
    "answer.subject.txt",
    "answer.txt",
    "answer.html",
    "refusal.subject.txt",
    "refusal.txt",
    "refusal.html",
    "invitation_answer.subject.txt",
    "invitation_answer.txt",
    "invitation_answer.html",
    "account_layout.html",
    "account_footer.txt",
    "confirm_registration.subject.txt",
    "confirm_registration.txt",
    "confirm_registration.html",
    "already_registered.subject.txt",
    "already_registered.txt",
    "already_registered.html",
    "password_reset.subject.txt",
    "password_reset.txt",
    "password_reset.html",
    "sign_in_code.subject.txt",
    "sign_in_code.txt",
    "sign_in_code.html",
    "confirm_new_address.subject.txt",
    "confirm_new_address.txt",
    "confirm_new_address.html",
    "address_taken.subject.txt",
    "address_taken.txt",
    "address_taken.html",
    "address_changed.subject.txt",
    "address_changed.txt",
    "address_changed.html",
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
            "settings_url": "https://hexpost.example.org/settings",
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

    #[test]
    fn account_mails_carry_their_code_and_a_link_that_enters_it() {
        let t = Templates::new().unwrap();
        let mut ctx = crate::mail::contexts::account("<Ada>", "ada+x@example.org", "K7QP2-MXD9H");
        ctx["base_url"] = "https://hexpost.example.org".into();
        ctx["settings_url"] = "https://hexpost.example.org/settings".into();
        for (kind, page) in [
            ("confirm_registration", "/confirm#"),
            ("already_registered", "/reset#"),
            ("password_reset", "/reset#"),
            ("sign_in_code", "/sign-in#"),
            ("confirm_new_address", "/account/email#"),
        ] {
            let r = t.render(kind, &ctx).unwrap();
            let link = format!(
                "https://hexpost.example.org{page}email=ada%2Bx%40example%2Eorg&code=K7QP2%2DMXD9H"
            );
            assert!(r.text.contains(&link), "{kind}: {}", r.text);
            assert!(r.text.contains("K7QP2-MXD9H"), "{kind}");
            let html = r.html.replace("&#x2f;", "/").replace("&amp;", "&");
            assert!(html.contains(&link), "{kind}: {}", r.html);
            assert!(!r.html.contains("<Ada>"), "{kind}: escaped");
            assert!(
                r.text.contains("nothing happens without the code"),
                "{kind}"
            );
        }
        ctx["code"] = "".into();
        for kind in ["address_taken", "address_changed"] {
            let r = t.render(kind, &ctx).unwrap();
            assert!(!r.text.contains("without the code"), "{kind}: {}", r.text);
        }
    }

    #[test]
    fn the_board_picture_is_shown_when_the_mail_carries_one() {
        let t = Templates::new().unwrap();
        let mut ctx = json!({
            "base_url": "https://hexpost.example.org",
            "settings_url": "https://hexpost.example.org/settings",
            "game_id": "g1", "player": "Ada", "opponent": "Grace", "variant": "duel",
            "move_number": 3, "deadline": null, "events": [], "events_omitted": 0,
            "hand": "nothing", "dev_cards": "nothing", "new_dev_cards": "nothing",
            "your_vp": 2, "scores": ["Ada 2 VP"], "decisions": ["roll the dice"],
            "holdings": [],
        });
        let without = t.render("your_move", &ctx).unwrap();
        assert!(!without.html.contains("<img"));
        ctx["picture"] =
            json!({"cid": "board0.x@h", "alt": "The board: <Ada>", "width": 476, "height": 446});
        let with = t.render("your_move", &ctx).unwrap();
        assert!(
            with.html
                .contains(r#"<img src="cid:board0.x@h" alt="The board: &lt;Ada&gt;" width="476""#),
            "{}",
            with.html
        );
        assert_eq!(with.text, without.text, "the plain text stands without it");
    }

    #[test]
    fn deadline_mails_render_what_they_are_given() {
        let t = Templates::new().unwrap();
        let base = json!({
            "base_url": "https://hexpost.example.org",
            "settings_url": "https://hexpost.example.org/settings",
            "game_id": "g1", "player": "Ada", "opponent": "Grace", "variant": "duel",
            "move_number": 12, "deadline": "Mon 2026-11-23 18:00 CET",
        });
        let with = |extra: serde_json::Value| {
            let mut c = base.clone();
            c.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            c
        };
        let r = t
            .render(
                "reminder",
                &with(json!({"hours_left": 1, "decisions": ["end your turn"], "forfeit": true})),
            )
            .unwrap();
        assert_eq!(
            r.subject,
            "Reminder: your move against Grace (duel) is due Mon 2026-11-23 18:00 CET"
        );
        assert!(r.text.contains("about 1 hour, at Mon 2026-11-23 18:00 CET"));
        assert!(r.text.contains("You are asked to:\n- end your turn\n"));
        assert!(r.text.contains("you lose the game"));
        let r = t
            .render(
                "timeout",
                &with(
                    json!({"taken": ["Ada ended the turn."], "automatic_in_a_row": 2,
                "max_auto_decisions": 3, "your_turn_again": false, "decisions": [], "over": false}),
                ),
            )
            .unwrap();
        assert!(r.text.contains("- Ada ended the turn.") && r.text.contains("2 times in a row"));
        assert!(r.text.contains("now Grace is to move"));
        let game = json!({"game_id": "g2", "variant": "duel", "opponent": "Grace", "move_number": 3,
            "deadline": null, "events": [], "events_omitted": 0, "hand": "nothing", "your_vp": 2,
            "dev_cards": "none", "new_dev_cards": "none", "holdings": [],
            "scores": ["Ada 2 VP"], "decisions": ["roll the dice"]});
        let r = t.render("digest", &with(json!({"games": [game]}))).unwrap();
        assert_eq!(r.subject, "1 game waits for your move on hexpost");
        assert!(r.text.contains("https://hexpost.example.org/games/g2"));
        assert!(!r.text.contains("runs out"));
        assert!(!r.text.contains("development cards"));
    }
}
