//! OpenAPI schemas for the types whose JSON form is written by hand (see
//! their serde impls); everything else derives its schema next to its
//! definition. Compiled only with the `openapi` feature.

use crate::board::{CardSet, EdgeSet, NodeSet, ResourceSet};
use crate::cards::{
    Card, CardKind, Cards, Commodity, DevCard, DevCounts, ProgressCard, ProgressCounts, Resource,
};
use crate::options::Edition;
use crate::seats::{Seat, SeatList};
use serde_json::{Value, json};
use std::borrow::Cow;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};
use utoipa::{PartialSchema, ToSchema};

// utoipa deprecates the `example` setters in favour of OpenAPI 3.1's
// `examples`, but every derived schema carries `example`: these keep the
// hand-written ones uniform with them.
#[allow(deprecated)]
fn object_example(o: ObjectBuilder, example: Value) -> ObjectBuilder {
    o.example(Some(example))
}

#[allow(deprecated)]
fn array_example(a: ArrayBuilder, example: Value) -> ArrayBuilder {
    a.example(Some(example))
}

fn int(min: i64, max: i64, description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::Integer))
        .minimum(Some(min))
        .maximum(Some(max))
        .description(Some(description))
}

impl PartialSchema for Seat {
    fn schema() -> RefOr<Schema> {
        object_example(
            int(
                0,
                3,
                "A seat: 0 and 1 are the two players, 2 and 3 automated seats of some variants",
            ),
            json!(1),
        )
        .into()
    }
}
impl ToSchema for Seat {}

impl PartialSchema for SeatList {
    fn schema() -> RefOr<Schema> {
        let seats = ArrayBuilder::new()
            .items(Seat::schema())
            .max_items(Some(4))
            .description(Some("Seats, in ascending order"));
        array_example(seats, json!([0, 2])).into()
    }
}
impl ToSchema for SeatList {}

fn id_list(max: i64, what: &str, example: Value) -> RefOr<Schema> {
    let ids = ArrayBuilder::new()
        .items(int(0, max, what))
        .unique_items(true)
        .description(Some(format!("{what} ids, ascending")));
    array_example(ids, example).into()
}

impl PartialSchema for NodeSet {
    fn schema() -> RefOr<Schema> {
        id_list(53, "Node", json!([9, 10, 21]))
    }
}
impl ToSchema for NodeSet {}

impl PartialSchema for EdgeSet {
    fn schema() -> RefOr<Schema> {
        id_list(71, "Edge", json!([12, 13, 27]))
    }
}
impl ToSchema for EdgeSet {}

impl PartialSchema for ResourceSet {
    fn schema() -> RefOr<Schema> {
        let set = ArrayBuilder::new()
            .items(Resource::schema())
            .unique_items(true)
            .max_items(Some(5));
        array_example(set, json!(["wool", "grain"])).into()
    }
}
impl ToSchema for ResourceSet {}

impl PartialSchema for CardSet {
    fn schema() -> RefOr<Schema> {
        let set = ArrayBuilder::new()
            .items(Card::schema())
            .unique_items(true)
            .max_items(Some(8));
        // Its example comes from a game (the server's openapi_ck_examples).
        set.into()
    }
}
impl ToSchema for CardSet {}

impl PartialSchema for Cards {
    fn schema() -> RefOr<Schema> {
        let mut o = ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::Object))
            .description(Some(
                "Resource cards by kind, and in Cities & Knights commodities (paper, cloth, \
                 coin, listed only when held); a missing kind counts as 0",
            ))
            .additional_properties(Some(
                utoipa::openapi::schema::AdditionalProperties::FreeForm(false),
            ));
        for r in Resource::ALL {
            o = o.property(r.to_string(), int(0, 255, "cards"));
        }
        for c in Commodity::ALL {
            o = o.property(c.to_string(), int(0, 255, "cards"));
        }
        object_example(
            o,
            json!({"brick": 1, "lumber": 0, "wool": 2, "grain": 1, "ore": 0}),
        )
        .into()
    }
}
impl ToSchema for Cards {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("ResourceCounts")
    }
}

impl PartialSchema for DevCounts {
    fn schema() -> RefOr<Schema> {
        let mut o = ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::Object))
            .description(Some("Development cards held, counted by kind."));
        for c in DevCard::ALL {
            o = o.property(
                c.name(),
                ObjectBuilder::new()
                    .schema_type(SchemaType::new(Type::Integer))
                    .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                        utoipa::openapi::KnownFormat::Int32,
                    )))
                    .minimum(Some(0)),
            );
        }
        object_example(
            o,
            json!({"knight": 1, "victory_point": 0, "road_building": 0, "year_of_plenty": 1, "monopoly": 0}),
        )
        .into()
    }
}

impl ToSchema for DevCounts {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("DevCounts")
    }
}

impl PartialSchema for ProgressCounts {
    fn schema() -> RefOr<Schema> {
        let mut o = ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::Object))
            .description(Some(
                "Progress cards counted by kind; only the kinds held are listed",
            ))
            .additional_properties(Some(
                utoipa::openapi::schema::AdditionalProperties::FreeForm(false),
            ));
        for c in ProgressCard::ALL {
            o = o.property(c.name(), int(0, 6, "cards"));
        }
        // Its example comes from a game (the server's openapi_ck_examples).
        o.into()
    }
}

impl ToSchema for ProgressCounts {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("ProgressCounts")
    }
}

impl PartialSchema for Edition {
    #[allow(deprecated)] // see object_example
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::new(Type::String))
                    .enum_values(Some(["1998", "edited"])),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::new(Type::Integer))
                    .enum_values(Some([1998])),
            )
            .description(Some(
                "shadow: the 1998 text or the edited one; 1998 may also be a number",
            ))
            .example(Some(json!("edited")))
            .into()
    }
}
impl ToSchema for Edition {}
