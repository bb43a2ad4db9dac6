# kexp plot; run `gnuplot test_accuracy_vs_solver.lambda.gp` here to redraw test_accuracy_vs_solver.lambda.svg
set terminal svg size 1000,735 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_solver.lambda.svg'
set title 'test accuracy against λ: kernel_ridge_classifier (dual)'
set xlabel 'λ (solver.lambda)'
set ylabel 'test accuracy (dashed: validation accuracy)'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'fisher information=empirical: the cell with the highest validation_accuracy over kernel.components at each value.' at screen 0.01, screen 0.1088 left font ',12'
set label 101 'gaussian map=none: the cell with the highest validation_accuracy over kernel.sigma at each value.' at screen 0.01, screen 0.0789 left font ',12'
set label 102 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0490 left font ',12'
set label 103 'Dashed: validation_accuracy on the training part, bars ± one standard deviation over the folds.' at screen 0.01, screen 0.0190 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('0.001' 0.001, '0.01' 0.01, '0.1' 0.1, '1' 1)
set logscale x
$line0 << EOD
0.001 0.9888888888888889 0.9792663844023951 0.9985113933753827
0.01 0.9888888888888889 0.9792663844023951 0.9985113933753827
0.1 0.9888888888888889 0.9792663844023951 0.9985113933753827
1 0.9888888888888889 0.9792663844023951 0.9985113933753827
EOD
$line1 << EOD
0.001 0.9923611111111111 0.9850121002118363 0.999710122010386
0.01 0.9923611111111111 0.9850121002118363 0.999710122010386
0.1 0.9923611111111111 0.9850121002118363 0.999710122010386
1 0.9923611111111111 0.9850121002118363 0.999710122010386
EOD
$line2 << EOD
0.001 0.9944444444444445 0.9896331922011976 0.9992556966876913
0.01 0.9944444444444445 0.9896331922011976 0.9992556966876913
0.1 0.9944444444444445 0.9896331922011976 0.9992556966876913
1 0.9916666666666667 0.9833333333333334 1
EOD
$line3 << EOD
0.001 0.9930555555555557 0.9864832627672656 0.9996278483438458
0.01 0.9930555555555557 0.9864832627672656 0.9996278483438458
0.1 0.9944444444444445 0.9872275660795742 1.0016613228093147
1 0.9951388888888889 0.9882443033123087 1.002033474465469
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'fisher information=empirical', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' notitle, \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'gaussian map=none', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#D55E00' notitle
