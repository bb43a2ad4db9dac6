# kexp plot; run `gnuplot cost_vs_D_hmm_min_length_100_max_length_100.gp` here to redraw cost_vs_D_hmm_min_length_100_max_length_100.svg
set terminal svg size 1000,806 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_D_hmm_min_length_100_max_length_100.svg'
set title 'time against the feature dimension D: hmm, n = 400 training points'
set xlabel 'D (feature dimension of the kernel''s map)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 10
set label 100 'hmm: max_length=100, min_length=100, model_seed=1, models=2, separation=0.25, standardize=false, states=3, symbols=4,' at screen 0.01, screen 0.1538 left font ',12'
set label 101 'test_fraction=0.2' at screen 0.01, screen 0.1266 left font ',12'
set label 102 'kernel_ridge_classifier and primal_ridge: λ changes no flop count (every value gives the same analytic count), so its 4 values' at screen 0.01, screen 0.0993 left font ',12'
set label 103 '({0.001, 0.01, 0.1, 1}) are one line, each point their mean, bars from the fastest to the slowest measurement of any.' at screen 0.01, screen 0.0720 left font ',12'
set label 104 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0447 left font ',12'
set label 105 'n = 400 is above every D drawn.' at screen 0.01, screen 0.0174 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('4' 4, '16' 16, '64' 64, '256' 256)
set logscale x
set logscale y
$line0 << EOD
4 0.0030079405 0.00279951 0.004371594
16 0.004908515666666666 0.004590796 0.0058727169999999995
64 0.02457659825 0.024151648 0.031040864
256 0.073328598 0.068339699 0.09043019299999999
EOD
$line1 << EOD
4 0.0008899926666666668 0.0008626620000000002 0.001012396
16 0.0012438993333333333 0.00121602 0.001512528
64 0.0015354745 0.001457467 0.0018000730000000001
256 0.002092325416666667 0.0019312490000000001 0.003034573
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual) · spectrum normalize=true', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal) · spectrum normalize=true'
