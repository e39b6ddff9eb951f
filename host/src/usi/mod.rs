//! USI, the protocol shogi programs speak: [`engine`] makes Henka's AI an engine any USI GUI
//! can drive (`henka usi`), and [`client`] drives an external engine as a player (`henka match`,
//! the editor).

pub mod client;
pub mod engine;
