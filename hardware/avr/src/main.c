// motorbreath board firmware for the ATmega328P (Arduino Uno/Nano): start-up and the main loop.
// The loop takes received frames, handles them (proto.c), keeps the output stage fed (play.c), and
// sleeps when there is nothing to do: through the 20 kHz PWM interrupts until a byte arrives, the output
// stage has news, or 16 periods (0.8 ms) have passed.
// SPDX-License-Identifier: Apache-2.0
#include <avr/interrupt.h>
#include <avr/sleep.h>

#include "clock.h"
#include "fault.h"
#include "link.h"
#include "output.h"
#include "play.h"
#include "proto.h"
#include "pwm.h"
#include "reply.h"
#include "sense.h"
#include "uart.h"

int main(void) {
    pwm_init();  // outputs at 0 % before anything else; starts the board clock
    uart_init();
    sense_init();  // the accelerometer, if one answers (capability bit 4)
    fault_init();
    set_sleep_mode(SLEEP_MODE_IDLE);
    sei();
    reply_info(false);  // the board announces itself once at boot
    for (;;) {
        fault_check();
        message m;
        bool got = link_receive(&m);
        if (got) proto_handle(&m);
        play_service(got);
        sense_service();
        uint8_t since = out_bottoms;
        for (;;) {
            cli();
            if (uart_rx_ready() || out_attention() || sense_attention() || (uint8_t)(out_bottoms - since) >= 16) break;
            sleep_enable();
            sei();  // the instruction after SEI runs before any interrupt: no wake-up is missed
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}
